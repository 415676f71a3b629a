"""The analysis' readers as they were when each read a whole results frame into pandas: the
reference the out-of-core readers (``ttr_lab.core.digest``) are tested against, table by
table, on small results sets (not shipped)."""
