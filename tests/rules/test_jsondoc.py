"""Issue 15 item 8 (hostile input treated as a user): a nested, huge or absurd JSON document is one clear refusal,
never a RecursionError or a ValueError — in the reader every `steward` command, `/report situation` and
`/tournament create overrides` share."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.jsondoc import MAX_DEPTH, DocumentError, NotJson, loads_bounded


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[" * 1000 + "]" * 1000, "too_deep"),
        ('{"a":' * 40 + "1" + "}" * 40, "too_deep"),
        ("9" * 4500, "number_too_long"),
        ('{"armies": 1e400000000000000000000000}', "number_too_long"),
        ("[NaN]", "not_a_number"),
        ("[1e999]", "number_too_long"),  # defect 11: short, but no finite float — never Infinity in an output
        ("[-1e999]", "number_too_long"),
        ("[1, 2", "not_json"),
        ("x" * 101, "too_large"),
    ],
)
def test_hostile_documents_are_refused_with_a_code(text: str, code: str):
    with pytest.raises(DocumentError) as err:
        loads_bounded(text, max_chars=100 if code == "too_large" else 10_000_000)
    assert err.value.code == code


def test_brackets_inside_strings_do_not_count_as_depth():
    doc = {"name": "[" * 200 + "{" * 200, "rows": [[1, 2], [3]]}
    assert loads_bounded(json.dumps(doc), max_chars=10_000) == doc


def test_not_json_says_where():
    with pytest.raises(NotJson) as err:
        loads_bounded('{"a": }', max_chars=100)
    assert (err.value.line, err.value.column) == (1, 7)


@given(st.recursive(st.none() | st.booleans() | st.integers(-10**9, 10**9) | st.text(max_size=5),
                    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids, max_size=3),
                    max_leaves=20))  # fmt: skip
def test_every_ordinary_document_reads_as_json_loads_reads_it(doc: object):
    text = json.dumps(doc)
    assert loads_bounded(text, max_chars=len(text), max_depth=MAX_DEPTH) == json.loads(text)


def test_steward_answers_a_nested_document_with_one_line_and_exit_2():
    result = subprocess.run(
        [sys.executable, "-m", "bot.cli", "risiko", "battle"], input="[" * 1000, capture_output=True, text=True
    )
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "deeper than 32 levels" in result.stderr
    assert "Traceback" not in result.stderr
