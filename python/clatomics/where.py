"""Predicates for compact, as data: ``where.x > 0.5``, ``where.in_range(where.x, 1, 2)``,
combined with ``&``, ``|`` and ``~`` (Python's and/or/not cannot be given a meaning). The values
are passed to the device as values, never written into code: one compiled program per shape."""

import numbers



def _value(v):
    if isinstance(v, bool) or not isinstance(v, (numbers.Integral, numbers.Real)):
        raise TypeError(f"clatomics.where: compare x with an int or a float, not {type(v).__name__}")
    return int(v) if isinstance(v, numbers.Integral) else float(v)


class Predicate:
    """A condition on one element x; build it from ``x`` and combine with & | ~."""

    __slots__ = ("tree",)

    def __init__(self, tree):
        self.tree = tree

    def __and__(self, other):
        return Predicate(("and", self.tree, _predicate(other).tree))

    def __or__(self, other):
        return Predicate(("or", self.tree, _predicate(other).tree))

    def __invert__(self):
        return Predicate(("not", self.tree))

    def __bool__(self):
        raise TypeError("clatomics.where: a predicate has no truth value: combine with & | ~, not and/or/not")

    def __repr__(self):
        return f"clatomics.where.Predicate({self.tree!r})"


def _predicate(p):
    if not isinstance(p, Predicate):
        raise TypeError(f"clatomics.where: {type(p).__name__} is not a predicate")
    return p


class _Element:
    """x, the element a predicate tests."""

    def _cmp(op):  # noqa: N805: builds the comparison methods below
        def method(self, v):
            return Predicate(("cmp", op, _value(v)))
        return method

    __lt__, __le__, __gt__, __ge__ = _cmp("lt"), _cmp("le"), _cmp("gt"), _cmp("ge")
    __eq__, __ne__ = _cmp("eq"), _cmp("ne")
    __hash__ = object.__hash__

    def __bool__(self):
        raise TypeError("clatomics.where: x has no truth value; compare it (x > 0.5)")

    def __repr__(self):
        return "clatomics.where.x"


x = _Element()


def _element(e):
    if e is not x:
        raise TypeError("clatomics.where: the argument is clatomics.where.x")


def isnan(e):
    _element(e)
    return Predicate(("test", "isnan"))


def isfinite(e):
    _element(e)
    return Predicate(("test", "isfinite"))


def isinf(e):
    _element(e)
    return Predicate(("test", "isinf"))


def in_range(e, lo, hi):
    """lo <= x < hi, half-open like a histogram bin."""
    _element(e)
    return Predicate(("range", _value(lo), _value(hi)))
