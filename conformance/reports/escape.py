"""Foreign text made safe for each format: an implementation's name, messages, stderr and replies are data, never markup.

Every format keeps every character a reader needs: a character a format
cannot hold (a control character, which XML 1.0 forbids and a terminal or a
Markdown renderer may act on, or a bidirectional control, which reorders
what is shown) is shown as a ``\\u`` escape of its four hex digits (``\\u001b`` for ESC) instead of
being dropped.
"""

from __future__ import annotations

import html
import re

#: Unicode's bidirectional controls (marks, embeddings, overrides, isolates): raw, they reorder what a reader sees,
#: so a name or a message could show text in an order other than the one written (a "Trojan source").
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
#: C0 controls but tab and newline, DEL, C1 controls, the bidirectional controls, lone surrogates and the two non-characters XML 1.0 excludes.
UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}\ud800-\udfff\ufffe\uffff]")
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]|~#])")
_BACKTICKS = re.compile(r"`+")


def visible(text: str) -> str:
    """``text`` with each character no format may carry raw written as a ``\\u`` escape of four hex digits; tab and newline kept."""
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def one_line(text: str) -> str:
    """``text`` made visible, its line breaks shown as ``\\n``: for a heading, a table cell, an attribute."""
    return visible(text).replace("\r", "\\r").replace("\n", "\\n").replace("\t", " ")


def markdown_inline(text: str) -> str:
    """Text for a Markdown heading, table cell or list item: one line, HTML escaped, every Markdown punctuation mark escaped."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", html.escape(one_line(text), quote=False))


def fence(text: str) -> str:
    """A backtick fence longer than any run of backticks inside ``text``, so nothing inside can close the block."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    return "`" * max(3, longest + 1)


def fenced(text: str, language: str = "") -> list[str]:
    """``text`` as a fenced code block whose fence it cannot close; control characters shown as escapes."""
    body = visible(text)
    marks = fence(body)
    return [marks + language, *body.splitlines(), marks]
