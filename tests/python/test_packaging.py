"""The files that describe the image to others, checked against the image's own facts (no build
needed): server.json for the MCP Registry and the Unraid Community Applications template
deploy/unraid/media-mcp.xml.

The registry's published schema (static.modelcontextprotocol.io, 2025-12-11) is on no package
registry this project can reach, and the repository keeps no copy of another project's files:
the checks below are its rules for the fields this file uses (the name pattern, the 100-character
description, a pinned version, the OCI identifier `registry/namespace/repository:tag` on a
registry it verifies, the transport and the environment inputs), and the ownership rule the
registry applies to OCI images (the image's `io.modelcontextprotocol.server.name` label is the
name: test_image.py checks the label, from this file). Unraid publishes no schema either: the
template is parsed and each field checked the way Community Applications reads it.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from image import version  # noqa: E402
from http_hosts import ROOT  # noqa: E402

SERVER = json.loads((ROOT / "deploy" / "mcp-registry" / "server.json").read_text())
DOCKERFILE = (ROOT / "deploy" / "image" / "Dockerfile").read_text()
VARIABLES = (ROOT / "crates" / "media-mcp-wire" / "src" / "variables.rs").read_text()
UNRAID = ROOT / "deploy" / "unraid" / "media-mcp.xml"

# The registries the MCP Registry verifies OCI images on (its package-types page).
OCI_REGISTRIES = re.compile(r"^(docker\.io|ghcr\.io|quay\.io|mcr\.microsoft\.com|[a-z0-9.-]+\.pkg\.dev|[a-z0-9-]+\.azurecr\.io)$")
INPUT_FIELDS = {"name", "description", "isRequired", "format", "value", "isSecret", "default",
                "placeholder", "choices", "variables"}


def table():
    """{name: kind} of every variable in wire's table."""
    out = {}
    for block in re.findall(r"Variable \{(.*?)\n\};", VARIABLES, re.S):
        name = re.search(r'name: "([A-Z0-9_]+)"', block).group(1)
        out[name] = re.search(r"kind: Kind::(\w+)", block).group(1)
    return out


def secret(name, kinds):
    """A credential: the table's secrets (the API keys) and the token lists and client secret."""
    return kinds[name] == "Secret" or name.endswith(("_TOKENS", "_SECRET"))


def exposed_port():
    return int(re.search(r"^EXPOSE (\d+)$", DOCKERFILE, re.M).group(1))


def test_the_table_has_the_secrets_the_files_mark():
    kinds = table()
    assert len(kinds) > 40
    assert {n for n in kinds if secret(n, kinds)} == {
        "OMBI_API_KEY", "SEERR_API_KEY", "MOVIEPILOT_API_KEY", "MEDIA_MCP_HTTP_TOKENS",
        "MEDIA_MCP_HTTP_PROXY_TOKENS", "MEDIA_MCP_OAUTH_INTROSPECTION_CLIENT_SECRET"}


def test_server_json_follows_the_registrys_rules():
    s = SERVER
    assert s["$schema"] == "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
    assert re.fullmatch(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+", s["name"]) and 3 <= len(s["name"]) <= 200
    assert 1 <= len(s["description"]) <= 100
    assert s["version"] == version(), "server.json's version is the workspace's"
    assert not re.search(r"[\^~<>=*x]|latest", s["version"])
    # An io.github.OWNER name is owned by that GitHub account: the repository's.
    owner = s["name"].split("/")[0].removeprefix("io.github.")
    repo = urlsplit(s["repository"]["url"])
    assert s["repository"]["source"] == "github" and repo.hostname == "github.com"
    assert repo.path.split("/")[1] == owner
    (package,) = s["packages"]
    assert package["registryType"] == "oci"
    host, _, rest = package["identifier"].partition("/")
    assert OCI_REGISTRIES.match(host), host
    path, _, tag = rest.rpartition(":")
    assert path.count("/") >= 1 and tag == version(), package["identifier"]
    assert "version" not in package or package["version"] == version()


def test_server_json_transport_is_the_images_port_and_path():
    (package,) = SERVER["packages"]
    transport = package["transport"]
    assert transport["type"] == "streamable-http"
    url = urlsplit(transport["url"])
    assert url.scheme == "http" and url.port == exposed_port()
    assert url.path == "/mcp"  # MEDIA_MCP_HTTP_PATH's default
    assert re.search(r'^CMD \["serve", "--http", "0\.0\.0\.0:(\d+)"\]$', DOCKERFILE, re.M).group(1) == str(exposed_port())


def test_server_json_environment_names_the_harnesss_variables_and_marks_the_secrets():
    kinds = table()
    (package,) = SERVER["packages"]
    env = package["environmentVariables"]
    names = [e["name"] for e in env]
    assert len(names) == len(set(names))
    assert {"OMBI_URL", "OMBI_API_KEY", "MEDIA_MCP_HTTP_TOKENS"} <= set(names)
    for e in env:
        assert set(e) <= INPUT_FIELDS, e
        assert e["name"] in kinds, f"{e['name']} is not a variable of the harness"
        assert e["isSecret"] is secret(e["name"], kinds), e["name"]
        assert isinstance(e["isRequired"], bool) and e["description"]
        assert e.get("format", "string") in ("string", "number", "boolean", "filepath")
    required = {e["name"] for e in env if e["isRequired"]}
    assert required == {"OMBI_URL", "OMBI_API_KEY", "MEDIA_MCP_HTTP_TOKENS"}


def test_the_unraid_template_describes_the_image():
    root = ET.parse(UNRAID).getroot()
    assert root.tag == "Container" and root.get("version") == "2"
    for field in ("Name", "Repository", "Network", "Overview", "Category", "Support", "Project"):
        assert (root.findtext(field) or "").strip(), field
    assert root.findtext("Name") == "media-mcp"
    assert root.findtext("Network") == "bridge"
    assert root.findtext("Privileged") == "false"
    # The image the registry entry names, at its moving tag.
    (package,) = SERVER["packages"]
    repository, _, tag = root.findtext("Repository").rpartition(":")
    assert repository == package["identifier"].rpartition(":")[0] and tag == "latest"
    assert "--read-only" in root.findtext("ExtraParams").split()
    kinds = table()
    configs = root.findall("Config")
    assert configs
    for c in configs:
        assert c.get("Type") in ("Port", "Variable", "Path"), c.attrib
        assert c.get("Display") in ("always", "advanced", "always-hide", "advanced-hide")
        assert c.get("Required") in ("true", "false") and c.get("Mask") in ("true", "false")
        assert c.get("Name") and c.get("Description")
    (port,) = [c for c in configs if c.get("Type") == "Port"]
    assert port.get("Target") == str(exposed_port()) and port.get("Mode") == "tcp"
    assert port.get("Default") == port.text == str(exposed_port())
    variables = {c.get("Target"): c for c in configs if c.get("Type") == "Variable"}
    for name, c in variables.items():
        assert name in kinds, f"{name} is not a variable of the harness"
        assert (c.get("Mask") == "true") is secret(name, kinds), name
    assert {n for n, c in variables.items() if c.get("Required") == "true"} == {"OMBI_URL", "OMBI_API_KEY"}
    # Every variable server.json offers, the template offers.
    assert {e["name"] for e in package["environmentVariables"]} <= set(variables)
