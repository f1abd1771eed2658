"""deploy/k8s, checked without a cluster: every manifest is valid against the Kubernetes
schemas (kubernetes-validate, strict, 1.30 and the latest version it knows), the kustomization lists
every file, and every command, flag, port and variable of the suite's containers is the
one the `poker` command's own parser accepts and reads."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from poker.cli import build_parser
from poker.serving import STOP_DEADLINE_S

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "deploy" / "k8s"
KUSTOMIZATION = yaml.safe_load((K8S / "kustomization.yaml").read_text())
DOCS: list[dict[str, Any]] = [
    doc for name in KUSTOMIZATION["resources"]
    for doc in yaml.safe_load_all((K8S / name).read_text()) if doc]
#: Kubernetes versions the manifests must be valid for: the oldest whose kubelet runs the
#: preStop `sleep` action by default (1.30), and the newest kubernetes-validate knows.
VERSIONS = ["1.30.0", kubernetes_validate.latest_version()]


def _of(kind: str) -> dict[str, dict[str, Any]]:
    return {d["metadata"]["name"]: d for d in DOCS if d["kind"] == kind}


def _workloads() -> dict[str, dict[str, Any]]:
    return {**_of("Deployment"), **_of("StatefulSet")}


def _poker_containers() -> list[tuple[str, dict[str, Any]]]:
    return [(name, c) for name, w in _workloads().items()
            for c in w["spec"]["template"]["spec"]["containers"] if c["image"] == "poker-suite"]


def _port(container: dict[str, Any], name: str) -> int:
    [port] = [p["containerPort"] for p in container["ports"] if p["name"] == name]
    return int(port)


def _parse(args: list[str]) -> argparse.Namespace:
    return build_parser().parse_args(args)


def test_the_kustomization_lists_every_manifest_and_names_the_image() -> None:
    files = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(KUSTOMIZATION["resources"]) == files
    assert KUSTOMIZATION["kind"] == "Kustomization" and KUSTOMIZATION["namespace"] == "poker"
    assert [i["name"] for i in KUSTOMIZATION["images"]] == ["poker-suite"]
    kinds = {d["kind"] for d in DOCS}
    assert {"Deployment", "HorizontalPodAutoscaler", "PodDisruptionBudget", "Service",
            "Secret", "StatefulSet"} <= kinds


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("index", range(len(DOCS)),
                         ids=[f"{d['kind']}-{d['metadata']['name']}" for d in DOCS])
def test_every_manifest_is_valid_against_the_kubernetes_schemas(index: int, version: str) -> None:
    kubernetes_validate.validate(DOCS[index], version, strict=True)


def test_validation_catches_a_misspelled_field() -> None:
    broken = yaml.safe_load(yaml.safe_dump(_of("Deployment")["dealer"]))
    broken["spec"]["template"]["spec"]["terminationGracePeriod"] = 30
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSIONS[-1], strict=True)


@pytest.mark.parametrize("workload", [name for name, _ in _poker_containers()])
def test_every_command_flag_and_port_matches_the_cli(workload: str) -> None:
    [container] = [c for name, c in _poker_containers() if name == workload]
    args = _parse(container["args"])  # the real parser: an unknown flag fails here
    assert args.command == "serve" and args.serve_what == workload
    assert args.host == "0.0.0.0" and args.metrics_host == "0.0.0.0"
    assert args.port == _port(container, "grpc")
    assert args.metrics_port == _port(container, "metrics")
    annotations = _workloads()[workload]["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(args.metrics_port)
    # Kubernetes' own gRPC probes (grpc.health.v1, which every service serves) on its port
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"]["port"] == args.port, probe


@pytest.mark.parametrize("workload", [name for name, _ in _poker_containers()])
def test_every_variable_is_read_by_the_service(workload: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Each variable set changes what the parser gives the service (its flags' defaults),
    or, for the address lists read when it starts (POKER_DEALERS), is read by its module."""
    [container] = [c for name, c in _poker_containers() if name == workload]
    before = vars(_parse(container["args"]))
    module = ROOT / (before["_module"].replace(".", "/") + ".py")
    source = module.read_text()
    secrets = _of("Secret")
    for variable in container.get("env", []):
        name = variable["name"]
        if "fieldRef" in variable.get("valueFrom", {}):
            # the pod's own facts (its IP): only for the $(NAME) of another variable
            assert any(f"$({name})" in v.get("value", "") for v in container["env"]), name
            continue
        if "valueFrom" in variable:
            ref = variable["valueFrom"]["secretKeyRef"]
            assert ref["key"] in secrets[ref["name"]]["stringData"], ref
            value = f"from-secret-{name}"
        else:
            value = variable["value"]
        with monkeypatch.context() as env:
            env.setenv(name, value)
            after = vars(_parse(container["args"]))
        changed = {k for k in after if after[k] != before[k]}
        assert changed or f'os.environ.get("{name}"' in source, (
            f"{workload} sets {name}, which `poker serve {workload}` never reads")


def test_services_reach_their_pods_by_named_ports() -> None:
    workloads = _workloads()
    for name, service in _of("Service").items():
        selector = service["spec"]["selector"]
        [pods] = [w["spec"]["template"] for w in workloads.values()
                  if w["spec"]["selector"]["matchLabels"] == selector]
        assert selector.items() <= pods["metadata"]["labels"].items(), name
        named = {p["name"]: p["containerPort"]
                 for c in pods["spec"]["containers"] for p in c["ports"]}
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in named, (name, port)


def test_dealers_find_every_evaluator_by_name_and_the_lobby_finds_the_dealers() -> None:
    evaluator = _of("Service")["evaluator"]
    assert evaluator["spec"]["clusterIP"] == "None"  # headless: DNS answers every pod
    containers = dict(_poker_containers())
    dealer = _parse(containers["dealer"]["args"])
    evaluator_port = _parse(containers["evaluator"]["args"]).port
    assert dealer.evaluator == [f"dns:///evaluator:{evaluator_port}"]
    # ... which looks the name up again as the evaluators end connections
    assert _parse(containers["evaluator"]["args"]).max_connection_age_s > 0
    [dealers] = [v["value"] for v in containers["lobby"]["env"] if v["name"] == "POKER_DEALERS"]
    service = _of("Service")["dealer"]
    assert dealers == f"dealer:{service['spec']['ports'][0]['port']}"
    assert service["spec"]["ports"][0]["port"] == dealer.port


def test_the_evaluators_autoscale_and_the_dealers_stop_gracefully() -> None:
    hpa = _of("HorizontalPodAutoscaler")["evaluator"]
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment",
                                             "name": "evaluator"}
    assert 1 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    pdb = _of("PodDisruptionBudget")["dealer"]
    dealer = _of("Deployment")["dealer"]
    assert pdb["spec"]["selector"] == dealer["spec"]["selector"]
    pod = dealer["spec"]["template"]["spec"]
    [container] = pod["containers"]
    wait = container["lifecycle"]["preStop"]["sleep"]["seconds"]
    # the pod is given the preStop wait and the whole stop deadline before SIGKILL
    assert pod["terminationGracePeriodSeconds"] >= wait + STOP_DEADLINE_S


def test_postgresql_is_an_external_dsn_with_a_trial_statefulset() -> None:
    secret = _of("Secret")["poker-postgres"]["stringData"]
    lobby = dict(_poker_containers())["lobby"]
    [dsn] = [v for v in lobby["env"] if v["name"] == "POKER_LOBBY_DSN"]
    assert dsn["valueFrom"]["secretKeyRef"] == {"name": "poker-postgres", "key": "dsn"}
    postgres = _of("StatefulSet")["postgres"]
    assert postgres["spec"]["replicas"] == 1
    assert "@postgres:5432/" in secret["dsn"]  # the trial StatefulSet's Service
    [password] = [v for v in postgres["spec"]["template"]["spec"]["containers"][0]["env"]
                  if v["name"] == "POSTGRES_PASSWORD"]
    assert password["valueFrom"]["secretKeyRef"]["name"] == "poker-postgres"
    assert f":{secret['password']}@" in secret["dsn"]


def test_the_dealers_share_postgresql_and_advertise_their_pod_address() -> None:
    """Dealers scale out on the PostgreSQL store with table leases (issue 15): a DSN of
    their own database, more than one replica, no volume, each advertising its pod IP."""
    dealer = _of("Deployment")["dealer"]
    assert dealer["spec"]["replicas"] >= 2 and "volumes" not in dealer["spec"]["template"]["spec"]
    [container] = dealer["spec"]["template"]["spec"]["containers"]
    env = {v["name"]: v for v in container["env"]}
    assert env["POKER_DEALER_DSN"]["valueFrom"]["secretKeyRef"] == {
        "name": "poker-postgres", "key": "dealer-dsn"}
    assert env["POD_IP"]["valueFrom"]["fieldRef"]["fieldPath"] == "status.podIP"
    port = _parse(container["args"]).port
    assert env["POKER_DEALER_ADVERTISE"]["value"] == f"$(POD_IP):{port}"
    secret = _of("Secret")["poker-postgres"]["stringData"]
    assert secret["dealer-dsn"].rsplit("/", 1)[1] != secret["dsn"].rsplit("/", 1)[1]
    init = _of("ConfigMap")["postgres-init"]["data"]
    assert any(f"CREATE DATABASE {secret['dealer-dsn'].rsplit('/', 1)[1]}" in sql
               for sql in init.values())
