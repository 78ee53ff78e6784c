"""How `./dev test` splits the suite over processes (scripts/testservices.py) and
how each worker finds its own services (tests/parallel.py)."""

from __future__ import annotations

import pytest

from scripts.testservices import ServiceError, names_tests, workers_for
from tests.parallel import own_services

ONE_CORE_EACH = {"MARRAM_TEST_WORKERS": "2"}


@pytest.mark.parametrize("args", [
    [],
    ["-q", "--durations=30"],
    ["-k", "scoring", "-x"],
    ["-p", "no:randomly"],
])
def test_the_whole_suite_runs_on_the_workers_asked_for(args):
    assert not names_tests(args)
    assert workers_for(args, ONE_CORE_EACH) == 2
    assert workers_for(args, {"MARRAM_TEST_WORKERS": "3"}) == 3


@pytest.mark.parametrize("args", [
    ["tests/engine"],
    ["-q", "tests/service/test_smoke.py"],
    ["tests/service/test_smoke.py::test_the_web_server_settings_come_from_the_environment"],
    ["-n", "3"],
    ["-n3"],
    ["--numprocesses=4"],
    ["--dist", "load"],
])
def test_chosen_tests_or_an_xdist_option_run_as_asked(args):
    assert workers_for(args, ONE_CORE_EACH) == 1


@pytest.mark.parametrize("own", ["DATABASE_URL", "REDIS_URL"])
def test_a_service_of_the_callers_own_means_one_process(own):
    assert workers_for([], {**ONE_CORE_EACH, own: "postgres://elsewhere/marram"}) == 1


@pytest.mark.parametrize("wanted", ["0", "two", "-1", "1.5"])
def test_a_wrong_number_of_workers_is_an_error_that_names_it(wanted):
    with pytest.raises(ServiceError, match="MARRAM_TEST_WORKERS"):
        workers_for([], {"MARRAM_TEST_WORKERS": wanted})


def test_a_worker_takes_its_own_services_and_the_controller_keeps_its():
    environ = {"PYTEST_XDIST_WORKER": "gw1",
               "DATABASE_URL": "postgres://127.0.0.1:1/marram",
               "REDIS_URL": "redis://127.0.0.1:1/0",
               "DATABASE_URL_gw0": "postgres://127.0.0.1:1/marram",
               "REDIS_URL_gw0": "redis://127.0.0.1:1/0",
               "DATABASE_URL_gw1": "postgres://127.0.0.1:2/marram",
               "REDIS_URL_gw1": "redis://127.0.0.1:2/0"}
    own_services(environ)
    assert (environ["DATABASE_URL"], environ["REDIS_URL"]) == (
        "postgres://127.0.0.1:2/marram", "redis://127.0.0.1:2/0")

    controller = {"DATABASE_URL": "postgres://127.0.0.1:1/marram"}
    own_services(controller)
    assert controller == {"DATABASE_URL": "postgres://127.0.0.1:1/marram"}


def test_a_worker_without_services_of_its_own_is_refused_not_pointed_at_anothers():
    environ = {"PYTEST_XDIST_WORKER": "gw2",
               "DATABASE_URL": "postgres://127.0.0.1:1/marram",
               "DATABASE_URL_gw0": "postgres://127.0.0.1:1/marram"}
    with pytest.raises(RuntimeError, match="DATABASE_URL_gw2 is not set"):
        own_services(environ)
    assert environ["DATABASE_URL"] == "postgres://127.0.0.1:1/marram"
