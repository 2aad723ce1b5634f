"""The official MCP Python client against the Seerr backend.

`media-mcp-demo --seerr --serve` runs the harness's host with the real component against the
fake Seerr (Seerr v3.1.0's recorded answers, crates/media-mcp-fakes/fixtures/seerr/v3.1.0/),
acting as its user alice. The client lists the tools and calls every Seerr tool; each result,
success or failure, is validated against the tool's outputSchema.
"""
import asyncio

import jsonschema
from mcp import StdioServerParameters

from test_mcp_client import DEMO, check_result, harness_env, require_artifacts, with_session

# Every Seerr tool, with arguments Seerr was recorded answering (as alice, from the scenario
# `requests` on).
CALLS = [
    ("read_search", {"query": "matrix"}),
    ("read_media", {"media": "movie", "id": "603", "include": ["credits", "providers"]}),
    ("read_requests", {}),
    ("read_request_stats", {"scope": "counts"}),
    ("read_request_stats", {"scope": "quota"}),
    ("read_issues", {"view": "list"}),
    ("read_users", {"view": "current"}),
    ("read_server", {"view": "health"}),
    ("write_request_create", {"media": "movie", "tmdb_id": 603}),
    ("write_request_approve", {"media": "movie", "request_id": 1}),
    ("write_request_deny", {"media": "movie", "request_id": 1, "reason": "no"}),
    ("write_request_delete", {"target_kind": "tv_child", "request_id": 3}),
    (
        "write_issue_create",
        {
            "title": "The Matrix",
            "request_type": "movie",
            "subject": "Audio out of sync",
            "description": "The audio drifts after ten minutes.",
            "category_id": 2,
            "request_id": 1,
        },
    ),
    ("write_issue_comment", {"action": "add", "issue_id": 1, "comment": "Thanks, it works now."}),
    ("write_issue_status", {"issue_id": 1, "status": "pending"}),
]

# What each call must come back as: ok, or the error code.
EXPECTED = {
    "read_server": "UNSUPPORTED_CAPABILITY",
    "write_request_approve": "FORBIDDEN",
    "write_request_deny": "UNSUPPORTED_CAPABILITY",
}


def test_official_client_validates_every_seerr_tool_result(tmp_path):
    require_artifacts()
    params = StdioServerParameters(
        command=str(DEMO), args=["--seerr", "--serve"], env=harness_env()
    )

    async def body(session, _init):
        tools = {t.name: t for t in (await session.list_tools()).tools}
        called = set()
        for name, args in CALLS:
            assert name in tools, f"{name} is not listed"
            jsonschema.Draft202012Validator(tools[name].input_schema).validate(args)
            result = await session.call_tool(name, args)
            sc = check_result(tools[name], result, "demo-")
            want = EXPECTED.get(name)
            if want is None:
                assert sc["ok"] is True, sc
            else:
                assert sc["error"]["code"] == want, sc
            called.add(name)
        return set(tools), called

    listed, called = asyncio.run(with_session(params, tmp_path / "stderr.txt", body))
    assert listed == called, f"listed but not called: {listed - called}"
