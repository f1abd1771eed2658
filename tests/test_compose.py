"""docker-compose.yml and the Dockerfile, checked without a Docker engine: the YAML parses, every
service has an image and a health check, every `poker` command it runs parses with the real
parser, every variable it sets is read by the service, every path it names exists."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from poker.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES: dict[str, Any] = COMPOSE["services"]
POKER = {name: s for name, s in SERVICES.items() if s.get("image", "").startswith("poker-suite")}
#: Variables read by the process setup every service shares (poker.log, poker.serving, poker.tls).
SHARED_SOURCES = ["poker/log.py", "poker/serving.py", "poker/cli.py", "poker/tls.py"]


def _parse(command: list[str]) -> Any:
    return build_parser().parse_args(command)


def _variables_read(module: str) -> set[str]:
    """POKER_* names a service's code reads: its command module and the shared setup."""
    paths = [ROOT / (module.replace(".", "/") + ".py"), *(ROOT / p for p in SHARED_SOURCES)]
    text = "".join(p.read_text() for p in paths if p.exists())
    return set(re.findall(r"\bPOKER_[A-Z_]+\b", text))


def test_the_file_parses_and_names_the_project() -> None:
    assert COMPOSE["name"] == "poker-suite"
    assert {"evaluator", "dealer", "lobby", "postgres"} <= set(SERVICES)


@pytest.mark.parametrize("name", sorted(SERVICES))
def test_every_service_has_an_image_and_a_health_check(name: str) -> None:
    service = SERVICES[name]
    assert service.get("image") or service.get("build"), name
    test = service["healthcheck"]["test"]
    assert test[0] == "CMD" and len(test) > 1
    for key in ("interval", "timeout", "retries"):
        assert key in service["healthcheck"], (name, key)


@pytest.mark.parametrize("name", sorted(POKER))
def test_every_poker_command_parses_and_is_probed_on_its_port(name: str) -> None:
    service = POKER[name]
    assert service["build"] == "." and (ROOT / "Dockerfile").exists()
    args = _parse(service["command"])
    assert args.command == "serve" and args.serve_what == name
    health = service["healthcheck"]["test"]
    assert health[1] == "poker", "the health check is `poker health` (grpc.health.v1)"
    probe = _parse(health[2:])
    assert probe.command == "health" and probe.address == f"127.0.0.1:{args.port}"
    assert args.host == "0.0.0.0"
    for mapping in service.get("ports", []):
        assert mapping.split(":")[-1] == str(args.port)


@pytest.mark.parametrize("name", sorted(POKER))
def test_every_variable_set_is_read_by_the_service(name: str) -> None:
    service = POKER[name]
    module = _parse(service["command"])._module
    read = _variables_read(module)
    for variable in service.get("environment", {}):
        assert variable in read, f"{name} sets {variable}, which {module} never reads"


def test_the_dealer_knows_every_evaluator_replica_and_the_lobby_its_dealer() -> None:
    replicas = SERVICES["evaluator"]["deploy"]["replicas"]
    assert replicas >= 2
    default = re.search(r":-([^}]*)}", SERVICES["dealer"]["environment"]["POKER_EVALUATORS"])
    assert default, "POKER_EVALUATORS has a default"
    addresses = default.group(1).split(",")
    assert addresses == [f"poker-suite-evaluator-{i}:50051" for i in range(1, replicas + 1)]
    evaluator_port = _parse(SERVICES["evaluator"]["command"]).port
    assert all(a.endswith(f":{evaluator_port}") for a in addresses)
    dealer_port = _parse(SERVICES["dealer"]["command"]).port
    assert SERVICES["lobby"]["environment"]["POKER_DEALERS"] == f"dealer:{dealer_port}"
    tokens = {SERVICES[s]["environment"]["POKER_SERVICE_TOKEN"] for s in ("dealer", "lobby")}
    assert len(tokens) == 1, "the lobby and the dealer share the service token"


def test_dependencies_exist_and_postgres_is_an_optional_profile() -> None:
    for name, service in SERVICES.items():
        for target in service.get("depends_on", {}):
            assert target in SERVICES, (name, target)
    assert SERVICES["postgres"]["profiles"] == ["postgres"]
    assert SERVICES["lobby"]["depends_on"]["postgres"]["required"] is False
    assert "pg_isready" in SERVICES["postgres"]["healthcheck"]["test"]
    assert "POKER_LOBBY_DSN" in SERVICES["lobby"]["environment"]


def test_volumes_are_declared_and_paths_exist() -> None:
    declared = set(COMPOSE.get("volumes", {}))
    for name, service in SERVICES.items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith((".", "/")):
                assert (ROOT / source).exists(), (name, source)
            else:
                assert source in declared, (name, source)
        build = service.get("build")
        if build:
            assert (ROOT / build).is_dir()


def test_the_dockerfile_copies_existing_paths_and_runs_poker() -> None:
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    copies = [shlex.split(line)[1:] for line in lines if line.startswith("COPY ")]
    assert copies
    for *sources, _target in copies:
        for source in sources:
            assert (ROOT / source).exists(), f"Dockerfile copies {source}, which does not exist"
    entry = next(line for line in lines if line.startswith("ENTRYPOINT"))
    assert entry == 'ENTRYPOINT ["poker"]'
    cmd = next(line for line in lines if line.startswith("CMD"))
    _parse(yaml.safe_load(cmd.removeprefix("CMD ")))
    packages = re.findall(r'"(\w+)\*"', (ROOT / "pyproject.toml").read_text())
    copied = {sources[0] for *sources, _ in copies}
    assert set(packages) <= copied, "every package pyproject installs is copied"
