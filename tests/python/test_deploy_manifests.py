"""deploy/wasmcloud/: the manifests `kubectl apply` would accept, checked offline.

The WorkloadDeployment is validated against the openAPIV3Schema of the runtime-operator's CRD,
read from the workplace's shared data beside the repository (../shared/scale/crd/, its source
and sha256 in SOURCE there; the repository keeps no copy of another project's files), strictly: every object
schema that lists its properties refuses others, as the API server does with strict field
validation (`kubectl apply --validate=strict`, the default). The CRD's two CEL rules on
hostInterfaces are checked by hand, and int32 fields for their range. The Service and Secret are
core objects: the test checks the fields the deployment relies on.
"""
import copy
import hashlib
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
DEPLOY = ROOT / "deploy" / "wasmcloud"
CRD_DIR = ROOT.parent / "shared" / "scale" / "crd"
CRD = CRD_DIR / "workloaddeployments.yaml"
CRD_SHA256 = "9132c1ef0f54ae41ca056caeee000a534118b26ae9e3ea5290f54aa638f98152"

if not CRD.is_file():
    pytest.skip(f"the runtime-operator CRD is not at {CRD} (the shared data beside the repository)",
                allow_module_level=True)
OBJECT_META = {"name", "namespace", "labels", "annotations"}


def strict(schema):
    """The schema with `additionalProperties: false` wherever properties are listed and no
    additionalProperties is given (Kubernetes prunes or, strictly, refuses unknown fields)."""
    schema = copy.deepcopy(schema)

    def walk(node):
        if isinstance(node, dict):
            if "properties" in node and "additionalProperties" not in node:
                node["additionalProperties"] = False
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


def crd_schema(version="v1alpha1"):
    crd = yaml.safe_load(CRD.read_text())
    assert crd["spec"]["names"]["kind"] == "WorkloadDeployment"
    (served,) = [v for v in crd["spec"]["versions"] if v["name"] == version]
    return crd["spec"]["group"], strict(served["schema"]["openAPIV3Schema"])


def int32_errors(schema, value, path="$"):
    """int32 fields out of range (jsonschema does not check `format: int32`)."""
    errors = []
    if isinstance(value, int) and schema.get("format") == "int32" and not -(2**31) <= value < 2**31:
        errors.append(f"{path}: {value} is not an int32")
    if isinstance(value, dict):
        for k, v in value.items():
            sub = schema.get("properties", {}).get(k) or (schema.get("additionalProperties") or {})
            if isinstance(sub, dict):
                errors += int32_errors(sub, v, f"{path}.{k}")
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, v in enumerate(value):
            errors += int32_errors(schema["items"], v, f"{path}[{i}]")
    return errors


def cel_errors(host_interfaces):
    """The CRD's two x-kubernetes-validations on spec.template.spec.hostInterfaces."""
    def key(x):
        return (x["namespace"], x["package"], x.get("name") or "", x.get("version") or "")

    errors = []
    keys = [key(x) for x in host_interfaces]
    if len(set(keys)) != len(keys):
        errors.append("hostInterfaces must not contain duplicate entries")
    unnamed = [(x["namespace"], x["package"]) for x in host_interfaces if not x.get("name")]
    if len(set(unnamed)) != len(unnamed):
        errors.append("at most one unnamed hostInterface is allowed per namespace:package")
    return errors


def workload_errors(doc):
    group, schema = crd_schema()
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in jsonschema.Draft7Validator(schema).iter_errors(doc)]
    if doc.get("apiVersion") != f"{group}/v1alpha1":
        errors.append(f"apiVersion {doc.get('apiVersion')!r}")
    meta = doc.get("metadata") or {}
    errors += [f"metadata.{k} is not an ObjectMeta field this test knows" for k in set(meta) - OBJECT_META]
    if not re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", meta.get("name", "")):
        errors.append("metadata.name is not a DNS label")
    errors += int32_errors(schema, doc)
    spec = ((doc.get("spec") or {}).get("template") or {}).get("spec") or {}
    errors += cel_errors(spec.get("hostInterfaces") or [])
    return errors


def documents(name):
    return [d for d in yaml.safe_load_all((DEPLOY / name).read_text()) if d]


def committed():
    docs = documents("workloaddeployment.yaml")
    by_kind = {d["kind"]: d for d in docs}
    assert sorted(by_kind) == ["Service", "WorkloadDeployment"] and len(docs) == 2
    return by_kind["WorkloadDeployment"], by_kind["Service"]


def test_the_crd_is_the_published_one():
    source = (CRD_DIR / "SOURCE").read_text()
    assert re.search(r"sha256:?\s+([0-9a-f]{64})", source).group(1) == CRD_SHA256
    assert hashlib.sha256(CRD.read_bytes()).hexdigest() == CRD_SHA256
    assert "runtime-operator/v2.7.0" in source


def test_the_workload_deployment_validates_strictly():
    wd, _service = committed()
    assert workload_errors(wd) == []


@pytest.mark.parametrize("where, field", [
    # The fields the previous manifest had, which the CRD does not.
    (("spec", "template"), "metadata"),
    (("spec", "template", "spec", "components", 0, "localResources"), "memoryLimitMb"),
    # And an arbitrary misspelling at each level.
    ((), "specs"),
    (("spec",), "replica"),
    (("spec", "template", "spec"), "hostselector"),
    (("spec", "template", "spec", "components", 0, "localResources", "environment"), "secretsFrom"),
    (("spec", "template", "spec", "hostInterfaces", 0), "interface"),
    (("spec", "template", "spec", "kubernetes", "service"), "port"),
])
def test_an_unknown_field_is_refused(where, field):
    wd, _service = committed()
    node = wd
    for step in where:
        node = node[step]
    node[field] = {"a": 1}
    errors = workload_errors(wd)
    assert errors and any(field in e for e in errors), errors


@pytest.mark.parametrize("change, expect", [
    (lambda wd: wd["spec"]["template"]["spec"]["components"][0].pop("image"), "'image' is a required"),
    (lambda wd: wd["spec"].__setitem__("replicas", "3"), "is not of type 'integer'"),
    (lambda wd: wd["spec"].__setitem__("replicas", 2**31), "not an int32"),
    (lambda wd: wd["spec"]["template"]["spec"]["components"][0]["localResources"]["allowedHosts"]
     .append("https://ombi.example.com/api"), "does not match"),
    (lambda wd: wd["spec"]["template"]["spec"]["hostInterfaces"].append(
        dict(wd["spec"]["template"]["spec"]["hostInterfaces"][0])), "duplicate"),
    (lambda wd: wd["metadata"].__setitem__("name", "Media_MCP"), "DNS label"),
])
def test_an_invalid_value_is_refused(change, expect):
    wd, _service = committed()
    change(wd)
    errors = workload_errors(wd)
    assert any(expect in e for e in errors), errors


def test_the_key_comes_from_the_secret_and_routing_from_the_service():
    wd, service = committed()
    (secret,) = documents("secret.yaml")
    spec = wd["spec"]["template"]["spec"]
    (component,) = spec["components"]
    env = component["localResources"]["environment"]
    assert [s["name"] for s in env["secretFrom"]] == [secret["metadata"]["name"]]
    assert secret["kind"] == "Secret" and secret["apiVersion"] == "v1"
    assert set(secret["stringData"]) == {"OMBI_API_KEY", "MEDIA_MCP_HTTP_TOKENS"}
    assert not {"OMBI_API_KEY", "MEDIA_MCP_HTTP_TOKENS"} & set(env.get("config", {})), "no key in plain config"
    for doc in (wd, service, secret):
        assert doc["metadata"]["namespace"] == "default"
    # The operator keeps the EndpointSlice of a selector-less Service, with a port named "http".
    assert spec["kubernetes"]["service"]["name"] == service["metadata"]["name"]
    assert "selector" not in service["spec"], "a selector would send traffic to hosts without a replica"
    assert [p["name"] for p in service["spec"]["ports"]] == ["http"]
    # Outbound HTTP only to the Ombi named in OMBI_URL.
    host = re.match(r"https?://([^/:]+)", env["config"]["OMBI_URL"]).group(1)
    assert [re.sub(r"^https?://", "", h).split(":")[0] for h in component["localResources"]["allowedHosts"]] == [host]


def test_the_memory_limit_is_a_host_setting_the_pinned_wash_knows(tmp_path):
    values = yaml.safe_load((DEPLOY / "values.yaml").read_text())
    (group,) = values["runtime"]["hostGroups"]
    env = {e["name"]: e["value"] for e in group["env"]}
    assert re.fullmatch(r"\d+MiB", env["WASH_DEFAULT_HEAP_MEMORY"])
    assert group["resources"]["limits"]["memory"]
    import subprocess
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from lattice import wash_binary

    help_text = subprocess.run([str(wash_binary()), "host", "--help"], capture_output=True, text=True,
                               timeout=60, check=True).stdout
    assert "[env: WASH_DEFAULT_HEAP_MEMORY=]" in help_text
