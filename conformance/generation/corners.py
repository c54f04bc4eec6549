"""The values where readings part: what PHP's ASCII-only text functions, its number casts and JSON disagree on.

Each pool mixes the plain values most scenarios need with the corners a
careful implementation gets right and a plausible one does not: PHP's
``trim`` strips space, tab, newline, carriage return, NUL and vertical tab
only (not NBSP, not form feed, not U+001C–U+001F, which Python's ``strip``
takes); ``strtolower`` folds ASCII only (not ``İ``, not the Kelvin sign,
which Python's ``lower`` folds to ``k``); ``is_numeric`` and ``(int)`` read
``" 3"``, ``"1.9"`` and ``"5e0"`` and saturate past 64 bits.
"""

from __future__ import annotations

from gateproof.model.ladder import DataClass
from gateproof.model.zones import TrustZone

CLASSES = [c.value for c in DataClass]
ZONES = [z.value for z in TrustZone]

#: Stored classes: read by exact match, so every near miss is undeclared.
CLASS_CORNERS = ["", "publiccontent", " sourceCode", "sourceCode ", "SECRET", "secretAdjacent\u00a0", "ｓｅｃｒｅｔ"]
#: Stored zones: anything but the four values reads as the strictest zone.
ZONE_CORNERS = ["", "Local", "onPrem", " local", "LOCAL", "externalGlobal\u00a0"]

#: The enforcement switch: only a literal observe, trimmed and lowercased the PHP way, observes.
SWITCHES = [
    "observe", "enforce", " OBSERVE ", "Observe\n", "\tobserve\r", "observe\x0b", "\x00observe",
    "\u00a0observe", "observe\x0c", "\x1cobserve", "OBSERV\u0130", "ＯＢＳＥＲＶＥ", "observ", "", "never",
    False, True, 0, 1, ["observe"], {"mode": "observe"}, None,
]

#: Whole-token tags and identifiers, with the corners of trim and lowercase.
TAGS = ["faq", "FAQ", " ops ", "ops", "legal", "", "XX", "kb", "\u212aB", "\u00a0faq", "faq\x0b", "ＦＡＱ", "\u0130nfo", "info"]
#: A name holds a quote or a backslash as stored: a name is never escaped (C144.8).
IDENTIFIERS = ["x", "X", " x ", "y", "", "\u00a0x", "x\x0b", "\x00x", "k", "\u212a", 'x"', "x\\", " "]  # the last empty once trimmed (C144.8)
NAMES = ["a", "b", "A", " a ", "\u00e4", "\u00c4", "a\u00a0", "\u0130", 'a "b"', "a\\b"]

#: Forced uids as a request body carries them: what is_numeric and (int) make of each decides the playground's set.
REQUEST_UID_CORNERS = [
    "1", "2", " 3", "3 ", "\t2\n", "\x0b1", "\x0c1", "\u00a01", "+2", "-1", "0", "00", "1.9", "2.0", ".5", "1.",
    "5e0", "1e3", "1e-1", "0x1A", "1_0", "x", "", "\u0663", "\uff11", "9223372036854775808", "-9223372036854775809",
    "9007199254740993", "9.223372036854775808e18", "1e19",  # exact only as an integer string; 2**63 as a float; between 2**63 and 2**64
    "1e400",  # a float string beyond any float: PHP's (int) makes it 0
    1.0, 1.9, 2.5, -0.0, 1e300, 0, -1, True, False, None, [1], {"uid": 1}, 2**31, 2**53 - 1,
]
#: Forced uids in a queued payload: only positive integers survive there.
QUEUED_UID_CORNERS = ["1", "2", 0, -1, 1.0, 2.5, True, None, [1], " 3", 2**31, 2**53 - 1]  # past 32 bits, and the last a double holds exactly
#: Entries of a stored suspend state: positive integers and ASCII digit strings survive.
STATE_UID_CORNERS = ["1", "2", "03", "0", "-1", "+1", " 2", "1.5", "\u0661", "\uff12", 1.5, 1.0, 0, -2, True, False, None, [1], {"uid": 1}, 2**31,
                     "2147483648"]

#: User uids as the call metadata or a run row carries them: only an integer is recorded.
USER_UIDS = [0, 5, 2**31 - 1, 2**53 - 1, -3, "5", "0", 5.0, True, None, [5]]
