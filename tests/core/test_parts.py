"""engine.core.parts: the one rule a wide decision is split by (issue 27, DESIGN.md
"decisions are small")."""

from engine.core.parts import in_parts, in_parts_by


def test_a_group_of_one_is_its_option_and_empty_groups_are_left_out():
    groups = [(("k", "a"), [("x", 1), ("x", 2)]), (("k", "b"), [("y", 1)]), (("k", "c"), [])]
    assert in_parts(groups) == [("k", "a"), ("y", 1)]


def test_one_group_lists_its_options_at_once():
    assert in_parts([(("k", "a"), [("x", 1), ("x", 2)]), (("k", "b"), [])]) == [("x", 1), ("x", 2)]
    assert in_parts([]) == []


def test_grouped_by_key_in_the_order_of_the_first_option():
    options = [("j", 9), ("j", 2), ("j", 10), ("j", 11), ("j", 3)]
    # keys 2, 0, 2, 2, 0 (value // 4): octagon 2 first, then octagon 0
    def oct_(a):
        return ("oct", a[1] // 4)
    assert in_parts_by(options, oct_) == [("oct", 2), ("oct", 0)]
    assert in_parts_by(options[:1] + options[4:], oct_) == [("j", 9), ("j", 3)]
    assert in_parts_by(options[1:2] + options[4:], oct_) == [("j", 2), ("j", 3)]
