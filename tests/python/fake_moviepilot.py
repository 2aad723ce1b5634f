"""The fake MoviePilot of crates/media-mcp-fakes as a process (target/release/fake-moviepilot):
its MCP URL and key, and on stop how many tools/call requests each tool received."""
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
BINARY = ROOT / "target" / "release" / "fake-moviepilot"


class FakeMoviePilot:
    def __init__(self, *, search_delay_ms=0, v2_9_15=False):
        if not BINARY.is_file():
            raise RuntimeError(f"{BINARY} is missing: ./scripts/build-native.sh")
        args = [str(BINARY), "--torrent-search-delay-ms", str(search_delay_ms)]
        if v2_9_15:
            args.append("--v2.9.15")
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        started = json.loads(self.proc.stdout.readline())
        self.url, self.key = started["url"], started["key"]
        self.tool_calls = None

    def stop(self):
        """Stops the fake; returns {tool: tools/call requests received}."""
        if self.tool_calls is None:
            self.proc.stdin.close()
            self.tool_calls = json.loads(self.proc.stdout.readline())["tool_calls"]
            self.proc.wait(timeout=10)
        return self.tool_calls
