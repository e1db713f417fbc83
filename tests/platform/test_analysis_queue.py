"""Analyses queue behind people (quadrille/analysis/runner.py on computer/pool.py's lowest lane): the order in
which requests get the worker, with stand-in workers that answer when the test says so (as
test_computer_fairness.py drives the scheduler). Ordering, never timing."""
from __future__ import annotations


import pytest

from quadrille.analysis.runner import AnalysisRunner, StepRefused
from tests.support.stand_ins import ask_move, end_search as finish, stand_in_pool
from tests.support.tasks import start_task
from tests.support.waiting import wait_until


@pytest.fixture
def pool():
    players = stand_in_pool()
    yield players
    players.test_worker.finish_all()


@pytest.fixture
def runner(pool):
    return AnalysisRunner(store=None, pool=pool, spawn=start_task, nodes=10)


def step(runner, tag: str, owner: str, answers: dict) -> None:
    """An analysis step in the background; its answer (or its refusal) lands in `answers[tag]`."""
    def ask():
        try:
            answers[tag] = runner.step(owner, {"kind": "evaluate", "tag": tag})
        except Exception as exc:
            answers[tag] = exc
    start_task(ask)
    wait_until(lambda: any(job.owner == owner and job.background for job in runner.pool._queue + runner.pool._running),
               5, f"{tag} queued")




def test_a_persons_move_cuts_an_analysis_step_short_goes_first_and_the_step_is_asked_again(pool, runner):
    answers: dict = {}
    step(runner, "step-A", "A", answers)
    wait_until(lambda: pool.test_worker.log == ["step-A"], 5, "the step's search")
    step(runner, "step-B", "B", answers)
    ask_move(pool, "person", "C")  # the worker was busy with a step: the step is cut short at once
    finish(pool, "person")
    wait_until(lambda: [match for match, _ in pool.service.played] == ["person"], 5, "the person's move played")
    finish(pool, "step-A")  # asked again, and first of the steps (it came first)
    finish(pool, "step-B")
    wait_until(lambda: len(answers) == 2, 5, "both steps answered")
    assert pool.test_worker.log == ["step-A", "person", "step-A", "step-B"]
    assert all(answer["score"] == 0 and not answer["cancelled"] for answer in answers.values())


def test_analysis_steps_wait_behind_every_move_and_addresses_take_turns(pool, runner):
    answers: dict = {}
    ask_move(pool, "busy", "X")  # holds the one worker while the rest queue
    step(runner, "A1", "A", answers)
    step(runner, "A2", "A", answers)
    step(runner, "B1", "B", answers)
    ask_move(pool, "demo", "D", demo=True)
    ask_move(pool, "person", "A")  # the address of the analyses: its person's move goes first all the same
    # Then the demo, then the steps: B's first, as A was served last (its person's move), then A's in turn.
    order = ["busy", "person", "demo", "B1", "A1", "A2"]
    for tag in order:
        finish(pool, tag)
    wait_until(lambda: len(answers) == 3, 5, "every step answered")
    assert pool.test_worker.log == order


def test_a_step_whose_worker_died_is_asked_again_and_a_refused_position_is_an_error(pool, runner):
    answers: dict = {}
    pool.test_worker.crash_next = True
    step(runner, "crash", "A", answers)
    finish(pool, "crash")  # the worker dies: the step is asked again
    finish(pool, "crash")
    wait_until(lambda: "crash" in answers, 5, "the step's answer")
    assert answers["crash"]["score"] == 0 and pool.test_worker.log == ["crash", "crash"]

    pool.test_worker.answer_with = {"refused": "illegal-move", "reason": "move 2 ('x') is illegal"}
    step(runner, "refused", "A", answers)
    finish(pool, "refused")
    wait_until(lambda: "refused" in answers, 5, "the refusal")
    assert isinstance(answers["refused"], StepRefused) and answers["refused"].code == "illegal-move"
