"""torch.autograd's engine switches: set_multithreading_enabled as a call, a context manager and a decorator
(thread-local), and the view-replay and Kineto queries."""

import threading

import core


def test_set_multithreading_enabled_sets_and_restores_the_flag_as_torch(torch):
    for lib in (core, torch):
        assert lib.autograd.is_multithreading_enabled() is True
        with lib.autograd.set_multithreading_enabled(False):
            assert lib.autograd.is_multithreading_enabled() is False
        assert lib.autograd.is_multithreading_enabled() is True
        lib.autograd.set_multithreading_enabled(False)
        assert lib.autograd.is_multithreading_enabled() is False
        lib.autograd.set_multithreading_enabled(True)


def test_set_multithreading_enabled_decorates_and_is_thread_local():
    seen = []

    @core.autograd.set_multithreading_enabled(False)
    def run():
        seen.append(core.autograd.is_multithreading_enabled())
        worker = threading.Thread(target=lambda: seen.append(core.autograd.is_multithreading_enabled()))
        worker.start()
        worker.join()

    assert core.autograd.is_multithreading_enabled() is True
    run()
    assert seen == [False, True] and core.autograd.is_multithreading_enabled() is True


def test_view_replay_and_kineto_queries_answer_bools(torch):
    assert core.autograd.is_view_replay_enabled() is torch.autograd.is_view_replay_enabled() is False
    assert core.autograd.kineto_available() is False
