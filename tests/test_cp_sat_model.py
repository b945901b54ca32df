"""core.cp_sat.BoolModel writes the proto ortools' own CpModel builds for the same constraints, so that the
task model's search is the one its Python objects gave (negated literals in sums as 1 - the variable, sums
merged and sorted, enforcement literals, one-sided bounds)."""

from solver.core.cp_sat import BoolModel, cp_sat, literal_value, sat_helper


def test_the_proto_is_the_one_ortools_builds():
    ours, theirs = BoolModel(), cp_sat().CpModel()
    a, b, c, e = (ours.new() for _ in range(4))
    x = [theirs.new_bool_var("") for _ in range(4)]
    ours.bool_or([a, -b - 1])
    theirs.add_bool_or([x[0], ~x[1]])
    ours.bool_and([a, -c - 1], e)
    theirs.add_bool_and([x[0], ~x[2]]).only_enforce_if(x[3])
    ours.exactly_one([a, b, -e - 1])
    theirs.add_exactly_one([x[0], x[1], ~x[3]])
    ours.linear([(1, c), (1, a), (1, -a - 1), (2, -b - 1), (1, c), (3, True), (5, False)], None, 4, -e - 1)
    theirs.add(x[2] + x[0] + ~x[0] + 2 * ~x[1] + x[2] + 3 <= 4).only_enforce_if(~x[3])
    ours.linear([(1, a), (-1, b)], 1, None)
    theirs.add(x[0] - x[1] >= 1)
    ours.linear([(1, a), (1, b)], 1, 1)
    theirs.add(x[0] + x[1] == 1)
    assert str(ours.proto()) == str(theirs.proto)


def test_a_solution_gives_each_literal_its_value():
    model = BoolModel()
    a, b = model.new(), model.new()
    model.bool_and([a, -b - 1])
    sat = sat_helper()
    response = sat.SolveWrapper().solve(model.proto())
    assert response.status == sat.OPTIMAL
    solution = list(response.solution)
    assert [literal_value(solution, lit) for lit in (a, -a - 1, b, -b - 1, True, False)] == [
        True, False, False, True, True, False]
