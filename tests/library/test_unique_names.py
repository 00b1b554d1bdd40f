"""UniqueNames: the names unique_name would give one after another, in linear time."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from carwars_desktop.library import NAME_MAX, UniqueNames, unique_name


def test_names_handed_out_in_turn_never_clash() -> None:
    names = UniqueNames({"Courier", "Courier (2)", "Kart"})
    assert names.take("Courier") == "Courier (3)"
    assert names.take("Courier") == "Courier (4)"
    assert names.take("Courier (3)") == "Courier (5)"
    assert names.take("Bus") == "Bus"
    assert names.take("Bus") == "Bus (2)"
    assert "Bus (2)" in names and "Bus (3)" not in names
    long = "x" * NAME_MAX
    assert len(UniqueNames({long}).take(long)) == NAME_MAX


@given(st.sets(st.sampled_from(["A", "A (2)", "A (4)", "B", "A (copy)"])),
       st.lists(st.sampled_from(["A", "A (2)", "A (3)", "B", "A (copy)", "C"]), max_size=12))
def test_the_same_names_as_asking_unique_name_each_time(taken: set[str],
                                                        incoming: list[str]) -> None:
    names = UniqueNames(taken)
    so_far = set(taken)
    for name in incoming:
        expected = unique_name(name, so_far)
        assert names.take(name) == expected
        so_far.add(expected)


def test_thousands_of_copies_try_each_number_once() -> None:
    names = UniqueNames(["Courier"] + [f"Courier ({n})" for n in range(2, 5001)])
    given_names = [names.take("Courier") for _ in range(1000)]
    assert given_names == [f"Courier ({n})" for n in range(5001, 6001)]
