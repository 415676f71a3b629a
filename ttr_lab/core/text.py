"""Which characters of a name or a message print as themselves.

Python's ``str.isprintable`` refuses every format character, among them the zero-width joiner
and the tag characters that join emoji into one picture (a family, a flag of a region): a name
such as "👨‍👩‍👧" was refused as holding a control character. Those two are let through here when
they join printable characters; every other control or format character (an escape code, a
newline, a right-to-left override) is still not printable.
"""

from __future__ import annotations

_ZWJ = "\u200d"


def _joins_emoji(text: str, i: int) -> bool:
    c = text[i]
    if c == _ZWJ:
        return 0 < i < len(text) - 1 and text[i - 1] != _ZWJ and text[i + 1].isprintable()
    return 0xE0020 <= ord(c) <= 0xE007F and i > 0  # a tag sequence (flags of regions) after its base


def first_unprintable(text: str) -> int:
    """The index of the first character of ``text`` that does not print as itself, -1 if none."""
    if text.isprintable():
        return -1
    return next((i for i, c in enumerate(text) if not c.isprintable() and not _joins_emoji(text, i)), -1)


def escaped(text: str) -> str:
    """``text`` with every character that does not print as itself written as its escape."""
    if first_unprintable(text) < 0:
        return text
    return "".join(c if c.isprintable() or _joins_emoji(text, i) else repr(c)[1:-1] for i, c in enumerate(text))
