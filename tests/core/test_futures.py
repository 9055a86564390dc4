"""torch.futures (Future, collect_all, wait_all) against torch: results, chained callbacks, errors, threads."""

import threading

import pytest

import core


def _chain(lib):
    """then/add_done_callback before and after the result, the values and types they see."""
    seen = []
    fut = lib.futures.Future()
    before = fut.then(lambda f: f.value() * 2)
    fut.add_done_callback(lambda f: seen.append(("cb", f.value().tolist())))
    done_before = (fut.done(), before.done())
    fut.set_result(lib.tensor([1.0, 2.0]))
    after = fut.then(lambda f: f.wait() + 1).then(lambda f: f.value().sum().item())
    fut.add_done_callback(lambda f: seen.append(("late", f.value().tolist())))
    return (done_before, fut.done(), before.wait().tolist(), after.value(), seen,
            type(fut).__name__, type(before).__name__, isinstance(before, lib.Future), isinstance(fut, lib.Future),
            isinstance(before, lib.futures.Future))


def test_results_and_chained_callbacks_as_torch(torch):
    assert _chain(core) == _chain(torch)


def _errors(lib):
    out = []

    def attempt(fn):
        try:
            fn()
            out.append("ok")
        except Exception as e:  # the type and message are what is compared
            out.append((type(e).__name__, str(e).split("\n")[0].split(" INTERNAL ASSERT FAILED")[0]))

    fut = lib.futures.Future()
    attempt(fut.value)  # no value yet
    fut.set_result(1)
    attempt(lambda: fut.set_result(2))
    attempt(lambda: fut.set_exception(3))
    bad = lib.futures.Future()
    child = bad.then(lambda f: f.value() + 1)
    bad.set_exception(ValueError("boom"))
    attempt(bad.wait)
    attempt(bad.value)
    attempt(child.wait)
    out.append(child.done())
    raising = fut.then(lambda f: 1 / 0)
    attempt(raising.value)
    logged = lib.futures.Future()
    logged.add_done_callback(lambda f: 1 / 0)  # reported, not raised
    attempt(lambda: logged.set_result(5))
    out.append(logged.value())
    attempt(lambda: lib.futures.Future(devices=["cpu"]))
    attempt(lambda: lib.futures.Future(devices=["cpu:0"]))
    return out


def test_errors_as_torch(torch, capfd):
    assert _errors(core) == _errors(torch)


def test_callback_error_message_names_the_exception_and_where(torch):
    for lib in (core, torch):
        fut = lib.futures.Future()
        fut.set_result(1)
        with pytest.raises(RuntimeError) as info:
            fut.then(lambda f: 1 / 0).wait()
        message = str(info.value)
        assert message.startswith("Got the following error when running the callback: ZeroDivisionError: division "
                                  "by zero\n\nAt:\n")
        assert "<lambda>" in message


def _collect(lib):
    a, b = lib.futures.Future(), lib.futures.Future()
    both = lib.futures.collect_all([a, b])
    states = [both.done()]
    a.set_result(lib.ones(2))
    states.append(both.done())
    b.set_result(2)
    states.append(both.done())
    values = [f.value() for f in both.wait()]
    bad = lib.futures.Future()
    pending = lib.futures.Future()
    waiting = lib.futures.collect_all([bad, pending])
    bad.set_exception(ValueError("v"))
    states.append(waiting.done())  # still waits for the other one
    pending.set_result(0)
    try:
        waiting.wait()
    except ValueError as e:
        states.append(str(e))
    try:
        lib.futures.wait_all([bad])
    except ValueError as e:
        states.append(str(e))
    try:
        lib.futures.collect_all([1])
    except TypeError as e:
        states.append(str(e).split("\n")[0])
    empty = lib.futures.collect_all([])
    return states, values[0].tolist(), values[1], lib.futures.wait_all([a, b])[1], empty.done(), empty.value()


def test_collect_all_and_wait_all_as_torch(torch):
    assert _collect(core) == _collect(torch)


def test_wait_blocks_until_another_thread_sets_the_result(torch):
    for lib in (core, torch):
        fut = lib.futures.Future()
        chained = fut.then(lambda f: f.value() + 1)
        worker = threading.Thread(target=fut.set_result, args=(41,))
        worker.start()
        assert chained.wait() == 42
        worker.join()


def test_names_as_torch(torch):
    assert core.futures.__all__ == torch.futures.__all__
    assert core._C.Future is core.Future
    assert issubclass(core.futures.Future, core.Future)
    assert repr(core.futures.Future[int]).replace("core", "torch") == repr(torch.futures.Future[int])
    assert repr(core.futures.Future()).replace("core", "torch").split(" at ")[0] == \
        repr(torch.futures.Future()).split(" at ")[0]
    assert repr(core.Future).replace("core", "torch") == repr(torch.Future)
