#!/usr/bin/env python3
"""The household soak, long form: quiet gaps longer than every timeout at its real default
(the harness's 10 s header and 30 s idle timeouts, its upstream pool's 30 s idle lifetime, and
the fake Ombi's keep-alive at Kestrel's 130 s), each followed by a burst of calls, against
`host-harness serve --http` and `wasmtime serve` (the README's flags) at the same time. Writes
its section of BENCHMARKS.md (run by scripts/bench.sh; `--smoke` runs one short gap with 1 s
timeouts and writes target/bench/household.smoke.md). tests/python/test_household.py is the
short form CI runs; tests/python/household.py says what is checked.

    target/py/bin/python scripts/household-soak.py [--smoke]
"""
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "python"))
import bench_section  # noqa: E402
import household  # noqa: E402
from test_household import SHORT_TIMEOUTS, start  # noqa: E402
from test_wasmtime_serve_flags import TOKEN  # noqa: E402

HEADING = "## Household soak: quiet gaps, then bursts"
KESTREL_KEEP_ALIVE_S = 130
LONG = household.Pattern(gaps=[35, 140, 12, 65, 31], burst=6, send_after_s=0.5)
SMOKE = household.Pattern(gaps=[1.6], burst=2, send_after_s=0.3)
HOSTS = ("host-harness serve --http", "wasmtime serve")


def run(host, pattern, timeouts, keep_alive_s, tmp, reports):
    import fake_ombi
    import secrets

    key = "canary-" + secrets.token_hex(12)
    log = tmp / f"ombi-{len(reports)}-{host.split()[0]}.jsonl"
    ombi = fake_ombi.start(key, str(log), keep_alive_s=keep_alive_s)
    try:
        host_tmp = tmp / host.split()[0]
        host_tmp.mkdir()
        pid, port, stop = start(host, key, f"http://127.0.0.1:{ombi.server_port}", host_tmp, timeouts)
        try:
            reports[host] = household.soak(host, port, pid, TOKEN, log, pattern)
        finally:
            stop()
    except Exception as e:  # noqa: BLE001 (reported in the section, and the run fails)
        reports[host] = e
    finally:
        ombi.shutdown()


def section(pattern, timeouts_text, reports, load):
    lines = [
        HEADING, "",
        f"Quiet gaps of {', '.join(f'{g:g}' for g in pattern.gaps)} s, each followed by one call on the "
        f"connection kept alive from the burst before it and a burst of {pattern.burst} calls at once "
        f"(reads and writes alternating, every other one sent {pattern.send_after_s:g} s after "
        f"connecting); timeouts: {timeouts_text}. Checked: every call answered once with its own id, "
        "every call reached the fake Ombi once, no answer cut short, resident memory after the last "
        f"gap within max({household.MEMORY_SLACK_KIB} KiB, {household.MEMORY_SLACK_SHARE:.0%}) of "
        f"its idle level after a warm-up burst. Load average {' '.join(load[0])} before, "
        f"{' '.join(load[1])} after.", "",
        "| host | calls | failures | kept-alive connection after a gap | idle RSS | RSS after the last gap | wall time |",
        "|---|---|---|---|---|---|---|",
    ]
    for host in HOSTS:
        r = reports.get(host)
        if isinstance(r, household.Report):
            failures = r.failures()
            kept = f"{r.kept_reused} answered, {r.kept_closed} closed cleanly and retried"
            lines.append(f"| {host} | {len(r.outcomes)} | {len(failures)} | {kept} | "
                         f"{r.idle_kib / 1024:.1f} MiB | {r.end_kib / 1024:.1f} MiB | {r.seconds:.0f} s |")
        else:
            lines.append(f"| {host} | not run: {r} | | | | | |")
    for host in HOSTS:
        r = reports.get(host)
        if isinstance(r, household.Report):
            for failure in r.failures()[:10]:
                lines.append(f"\n- {host}: {failure}")
    return "\n".join(lines) + "\n"


def main():
    smoke = bench_section.smoke_flag("household-soak.py")
    if smoke:
        pattern, timeouts, keep_alive = SMOKE, SHORT_TIMEOUTS, 1
        timeouts_text = "the harness's idle, header and body timeouts and the fake Ombi's keep-alive 1 s"
    else:
        pattern, timeouts, keep_alive = LONG, {}, KESTREL_KEEP_ALIVE_S
        timeouts_text = ("the harness's defaults (header 10 s, idle 30 s, upstream pool idle 30 s), "
                         f"the fake Ombi's keep-alive {KESTREL_KEEP_ALIVE_S} s (Kestrel's default)")
    reports = {}
    before = bench_section.load_average()
    with tempfile.TemporaryDirectory() as d:
        threads = [threading.Thread(target=run, args=(h, pattern, timeouts, keep_alive, Path(d), reports))
                   for h in HOSTS]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    after = bench_section.load_average()
    text = section(pattern, timeouts_text, reports, (before, after))
    bench_section.write(HEADING, text, "household.smoke.md", smoke, "household-soak")
    print(text)
    failed = [h for h in HOSTS if not isinstance(reports.get(h), household.Report) or reports[h].failures()]
    if failed:
        sys.exit(f"household-soak: failed on {', '.join(failed)}")


if __name__ == "__main__":
    main()
