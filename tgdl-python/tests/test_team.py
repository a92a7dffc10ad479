"""Team results from Python (docs/reference/statements.md, `winners`): a game that ends with the
players winning or losing together says so in `result()` and `team()`, and its returns are 1
for the players who won and 0 for the others (or the shared payoffs).

The game: tests/programs/team_results.tgdl (`team_results`, 4 players): the first decision
picks the action, the second how the game ends."""

import pytest

import team_results


def ended_by(kind):
    state = team_results.Game(4).new_state(1)
    state.apply_action(0)
    state.apply_action(kind)
    assert state.is_terminal()
    return state


@pytest.mark.parametrize(
    "kind,result,team,returns",
    [
        (0, "the players win", [0, 1, 2, 3], [1.0, 1.0, 1.0, 1.0]),
        (1, "the players lose", [], [0.0, 0.0, 0.0, 0.0]),
        (2, "players 0, 2 win", [0, 2], [1.0, 0.0, 1.0, 0.0]),
        (4, "the players win; payoffs 7, 7, 7, 7", [0, 1, 2, 3], [7.0, 7.0, 7.0, 7.0]),
        (6, "ranking 1. players 0, 3; 2. players 1, 2", None, [1.0, 0.0, 0.0, 1.0]),
    ],
)
def test_a_team_result_reads_and_pays_as_one(kind, result, team, returns):
    state = ended_by(kind)
    assert state.result() == result
    assert state.team() == team
    assert state.returns() == returns


def test_no_result_before_the_end():
    state = team_results.Game(4).new_state(1)
    assert state.result() is None and state.team() is None
