#!/usr/bin/env python3
"""Drives one stdio MCP server with the official Python SDK client (`mcp`), the way an agent
built on it would: `initialize`, `tools/list` (so the client validates every result against the
tool's `outputSchema`), then `read_search` calls with 1, 8 and 32 in flight on one session.

    python_client.py [--in-flight 1,8,32] [--calls-per-slot 12] [--warmup 5] -- COMMAND ARGS...

The server gets this process's environment. One JSON line per in-flight count on stdout:
{"in_flight": k, "calls": n, "seconds": s, "client_cpu": s, "server_cpu": s}, where the CPU
figures are user + system seconds over those calls, of this process (all threads) and of its
child process (the server, all threads, read from /proc).
"""

import argparse
import json
import os
import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ARGUMENTS = {"query": "matrix", "media": "movie"}


def children_cpu() -> float:
    """User + system seconds of this process's direct children (the server)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children") as f:
                children = f.read().split()
        except OSError:
            continue
        for pid in children:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


async def call(session: ClientSession) -> None:
    result = await session.call_tool("read_search", ARGUMENTS)
    if result.is_error or result.structured_content is None:
        raise RuntimeError(f"read_search did not succeed: {result}")


async def run(args: argparse.Namespace) -> None:
    params = StdioServerParameters(
        command=args.command[0], args=args.command[1:], env=dict(os.environ)
    )
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await session.list_tools()
                for _ in range(args.warmup):
                    await call(session)
                for k in [int(n) for n in args.in_flight.split(",")]:
                    total = max(k * args.calls_per_slot, 4 * args.calls_per_slot)
                    left = [total]

                    async def worker() -> None:
                        while left[0] > 0:
                            left[0] -= 1
                            await call(session)

                    cpu, server_cpu = time.process_time(), children_cpu()
                    started = time.perf_counter()
                    async with anyio.create_task_group() as group:
                        for _ in range(k):
                            group.start_soon(worker)
                    seconds = time.perf_counter() - started
                    line = {
                        "in_flight": k,
                        "calls": total,
                        "seconds": seconds,
                        "client_cpu": time.process_time() - cpu,
                        "server_cpu": children_cpu() - server_cpu,
                    }
                    print(json.dumps(line), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--in-flight", default="1,8,32")
    parser.add_argument("--calls-per-slot", type=int, default=12)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    try:
        anyio.run(run, args)
    except Exception as error:  # the bench reports the server as failed, with this line
        print(f"python_client: {error!r}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
