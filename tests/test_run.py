"""The report a run hands to reporters: findings plus what reporters may show beside them."""

from __future__ import annotations

from pathlib import Path

from mcplint.engine.linter import Selection
from mcplint.run import run

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "support-desk.json"


def test_report_carries_tool_details_and_the_docs_of_rules_that_ran() -> None:
    report = run([str(EXAMPLE)], Selection(select=("SPEC004", "SPEC007")))
    assert [f.code for f in report.findings] == ["SPEC007", "SPEC004"]
    assert sorted(report.rules) == ["SPEC004", "SPEC007"]
    assert report.rules["SPEC007"].name == "required-property-missing"
    assert report.rules["SPEC007"].why
    (summary,) = report.files
    assert summary.tools == 5 and summary.tokens == sum(t.tokens for t in summary.tool_details)
    get_ticket = summary.tool_details[2]
    assert (get_ticket.name, get_ticket.pointer, get_ticket.line) == ("get_ticket", "/tools/2", 25)
    (param,) = get_ticket.parameters
    assert (param.path, param.types, param.required) == ("ticket_id", ("string",), False)
    assert param.description == "Ticket id such as T-10422."
