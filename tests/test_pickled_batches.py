"""Results a scan's child sends home: a long list is pickled in batches, so pickling it stays small."""

from __future__ import annotations

import pickle
import tracemalloc

import pytest

from reviewtui.evalset.checks.audit import AuditConfig, AuditReport, Finding, Status
from reviewtui.evalset.jobs.channel import pickled_in_batches, unpickled_batches
from reviewtui.evalset.jobs.collector import return_freed_memory
from reviewtui.evalset.model.flag import Severity


@pytest.mark.parametrize("count", [0, 1, 3, 7, 9])
def test_batches_come_back_whole_and_in_order(count):
    values = [{"n": n, "text": f"value {n}"} for n in range(count)]
    assert unpickled_batches(pickled_in_batches(values, size=3)) == tuple(values)


def test_an_object_shared_across_batches_comes_back_equal_in_each():
    shared = ("a", "tuple", "named", "twice")
    values = [shared, "x", "y", shared, "z", shared]
    back = unpickled_batches(pickled_in_batches(values, size=2))
    assert back == tuple(values)
    # Within a batch the pickle keeps one object; across batches each batch has its own copy.
    assert back[0] is not back[3]


# As the audit words them: a few texts shared by many findings, each naming its own items.
_DETAILS = tuple(f"the expected answer has {n} content words" for n in range(3))


def _report(count: int) -> AuditReport:
    findings = tuple(
        Finding(
            check="weak-answer",
            status=Status.WARN,
            severity=Severity.LOW,
            item_ids=(f"item-{n:06d}",),
            detail=_DETAILS[n % 3],
            recommendation="Give a complete answer.",
            evidence={"content_words": n % 3},
        )
        for n in range(count)
    )
    return AuditReport(Status.WARN, findings, (), {"items": count}, AuditConfig(), "set", 2)


def test_an_audit_report_survives_the_trip_from_the_child():
    report = _report(10_000)
    back = pickle.loads(pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == report
    assert type(back.findings) is tuple and back.findings[1234] == report.findings[1234]


def test_pickling_a_large_report_needs_little_more_than_the_pickle():
    # A plain pickle of 20k findings keeps every object it wrote, and the temporaries describing
    # each, until the end: about eleven times the pickle's size, on top of the child's own peak.
    report = _report(20_000)
    tracemalloc.start()
    try:
        data = pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * len(data), (peak, len(data))


def test_freed_memory_goes_back_where_the_c_library_allows():
    import ctypes

    try:
        has_trim = hasattr(ctypes.CDLL(None), "malloc_trim")
    except OSError:
        has_trim = False
    assert return_freed_memory() is has_trim


def test_an_answer_is_pickled_into_the_spool_file_not_first_into_memory():
    # The child's answer used to be pickled whole in memory, then written: its size on top of the child's peak.
    from reviewtui.evalset.jobs.channel import Channel, Sender

    channel = Channel()
    try:
        sender = Sender(channel.spool, channel.child_end)
        large = (b"x" * (8 << 20), list(range(50_000)), "a string")
        tracemalloc.start()
        try:
            sender.send(large)
            sender.send("the next answer")
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < (1 << 20), peak  # frames of 64 KB, never the 8 MB pickle
        assert channel.receive() == large
        assert channel.receive() == "the next answer"
        sender.fail(ValueError("it broke"))
        with pytest.raises(Exception, match="it broke"):
            channel.receive()
    finally:
        channel.close()


def test_a_buffer_in_another_memory_layout_is_sent_whole():
    """pickle hands a writer the raw buffer of an out-of-band object as it is; one not laid out in C order
    must be copied before it is written, not refused."""
    np = pytest.importorskip("numpy")
    from reviewtui.evalset.jobs.channel import Channel, Sender

    array = np.asfortranarray(np.arange(20_000.0).reshape(100, 200))
    channel = Channel()
    try:
        Sender(channel.spool, channel.child_end).send(pickle.PickleBuffer(array))
        back = channel.receive()
        assert bytes(back) == array.tobytes(order="A")  # the same bytes, in the array's own layout
    finally:
        channel.close()


def test_a_finding_comes_back_field_for_field_and_is_rebuilt_by_its_constructor():
    finding = Finding("near-duplicates", Status.FAIL, None, ("a", "b"), "same words", "merge them")
    back = pickle.loads(pickle.dumps(finding, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == finding and back.evidence == {} and back.severity is None and back.status is Status.FAIL
    # Through the constructor: a frozen dataclass's default __setstate__ looks its fields up again per object.
    assert finding.__reduce__()[0] is Finding



def test_a_result_is_taken_in_without_its_whole_pickle_beside_it():
    """The parent reads a result from the spool as the unpickler asks for it: a frame read whole first was a
    copy of the pickle held beside the result it made, at the peak of the process taking in a scan's audit."""
    from reviewtui.evalset.jobs.channel import Channel, Sender

    value = [f"item {n} of a long result" for n in range(60_000)]
    pickled = len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    channel = Channel()
    try:
        send = Sender(channel.spool, channel.child_end)
        send(value)
        send({"after": 1})
        tracemalloc.start()
        try:
            back = channel.receive()
            kept, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert back == value
        assert peak - kept < pickled / 2, (peak - kept, pickled)  # the whole frame was all of it
        assert channel.receive() == {"after": 1}  # read from where the first one ended
    finally:
        channel.close()
