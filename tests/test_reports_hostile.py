"""Every report format under an implementation whose name, replies, messages, context and stderr are hostile text.

The text stays text: no tag, attribute or code block of its own in HTML or
Markdown, well-formed XML, and every character back unchanged from JSON.
"""

import json
import re
import sys
from xml.etree import ElementTree

import jsonschema_rs
import pytest
from markdown_it import MarkdownIt

from gateproof.conformance.reports.render import render_results

from harness_helpers import fake
from report_helpers import Page, invalid_records, schema, verify

sys.path.insert(0, str(fake("hostile")[1].rsplit("/", 1)[0]))
from hostile import ERRORED, HOSTILE, NAME  # noqa: E402  (the fake's own strings, not a copy of them)

#: What a report may contain as markup: the renderers' own tags, nothing an implementation could bring.
OWN_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "h4", "p", "b", "em", "strong", "a", "code", "pre",
            "span", "table", "colgroup", "col", "thead", "tbody", "tr", "th", "td", "details", "summary", "section", "div", "ul", "li", "br",
            "blockquote", "hr"}
#: Characters no report may carry raw: controls, and the bidirectional controls that reorder what a reader sees.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def escaped(text: str) -> str:
    """``text`` as the reports show it: each character :data:`CONTROL` names as a ``\\u`` escape."""
    return CONTROL.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    out = tmp_path_factory.mktemp("hostile") / "gateproof-verify"
    result = verify("--examples", "0", "--kinds", "gateway", "--rules", "lab-001", "--out", str(out), "--", *fake("hostile"))
    assert result.exit_code == 1, result.output  # wrong, errored and skipped, as the fake means to be
    statuses = {json.loads(line).get("status") for line in (out / "results.jsonl").read_text().splitlines()}
    assert {"failed", "errored", "skipped", "passed"} <= statuses
    return out / "results.jsonl"


def test_every_record_written_of_a_hostile_implementation_is_valid(hostile):
    assert invalid_records(hostile) == []


def test_the_html_report_holds_hostile_text_as_text(hostile):
    text = render_results(hostile, "html")
    page = Page(text)
    assert not page.open and page.tags <= OWN_TAGS and not [a for a in page.attributes if a.startswith("on")]
    assert not CONTROL.search(text) and "javascript:" not in text.replace("<b>homepage</b> javascript:alert(5)", "")
    assert 'href="https://example.org/issues?q=&#34;&gt;&lt;script&gt;alert(6)&lt;/script&gt;"' in text
    shown = page.all_text
    visible = escaped(HOSTILE)
    assert "\\u202egnp.exe\\u2066\\u2069\\u200f\\u061c" in visible
    assert f"hostile {visible}" in shown and f"errored {visible}" in shown and f"skipped {visible}" in shown
    stderr_line = visible[:-len("\\u000b")]  # the harness splits stderr into lines at the vertical tab too
    assert f"stderr says {stderr_line}" in shown and f"Traceback {visible}" in shown


def test_the_markdown_report_holds_hostile_text_as_text(hostile):
    text = render_results(hostile, "markdown")
    assert not CONTROL.search(text)
    rendered = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    page = Page(rendered)
    assert page.tags <= OWN_TAGS and "script" not in page.tags and "img" not in page.tags
    assert not [a for a in page.attributes if a.startswith("on")]
    header = rendered[:rendered.index("<h2>")]
    table = header[header.index("<table>"):]
    columns = [len(re.findall("<t[hd]", row)) for row in table.split("<tr>")[1:]]
    assert len(set(columns)) == 1  # no pipe in a name added a column
    assert "[bold]loud[/bold]" in page.all_text and "<script>alert(1)</script>" in page.all_text


def test_the_markdown_code_blocks_cannot_be_closed_by_a_message(hostile):
    rendered = MarkdownIt("commonmark", {"html": True}).render(render_results(hostile, "markdown"))
    blocks = re.findall(r"<pre><code[^>]*>(.*?)</code></pre>", rendered, re.S)
    inside = [b for b in blocks if "[bold]loud" in b]  # blocks holding the whole hostile string
    assert inside and all("``` fence ```" in b for b in inside)  # the message's fence is kept whole inside the block
    outside = re.sub(r"<pre><code[^>]*>.*?</code></pre>", "", rendered, flags=re.S)
    assert "<code>" not in outside  # the report writes no code span, so none comes from a message's backticks


def test_the_junit_report_is_well_formed_with_hostile_text(hostile):
    root = ElementTree.fromstring(render_results(hostile, "junit"))
    [suite] = root.findall("testsuite")
    assert suite.get("name").startswith("hostile <script>alert(1)</script>") and "\\u001b" in suite.get("name")
    assert int(suite.get("failures")) > 0 and int(suite.get("errors")) > 0 and float(suite.get("time")) > 0


def test_the_json_report_gives_back_every_character(hostile):
    document = json.loads(render_results(hostile, "json"))
    jsonschema_rs.validate(schema("verify-report.schema.json"), document)
    [implementation] = document["implementations"]
    assert implementation["implementation"] == NAME
    messages = {v["message"] for v in implementation["verdicts"]}
    assert ERRORED in messages and f"skipped {HOSTILE}" in messages
    actual = {leaf.get("actual") for v in implementation["verdicts"] for leaf in v["differences"]}
    assert HOSTILE in actual
