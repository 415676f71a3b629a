"""People at the table: a human seat playing against the shipped strategies, in the terminal
(``terminal.py``: ``ttr-lab play --human SEATS``) or in a browser (``session.py``, ``server.py``,
``page.py``: ``ttr-lab serve``). Every game, through its public API: a person sees their own
``observation(seat)`` only, as the game's ``views.live()`` presents it, and plays its legal
actions. The server's web framework (Starlette, uvicorn) is the optional ``play`` extra, imported
only by ``server.py``."""
