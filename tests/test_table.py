"""The kernel's transposition table (solver/engines/kernel/table.py): what it finds, and what a full bucket evicts."""

from solver.engines.kernel.table import TranspositionTable, tt_lost, tt_store

ROWS = 4  # a table of 2^4 entries: four buckets of TT_WAYS = 4
SAME_BUCKET = [row_key * ROWS + 1 for row_key in range(1, 8)]  # keys of one bucket (the low bits pick it)


def test_a_stored_position_is_found_in_its_generation_only_and_by_both_key_words():
    table = TranspositionTable(4).entries
    assert table.shape[0] == ROWS
    tt_store(12345, 678, 10, table, 1)
    assert tt_lost(12345, 678, table, 1)
    assert not tt_lost(12345, 678, table, 2)  # a new deal's generation: nothing stored before counts
    assert not tt_lost(12345, 679, table, 1)  # the second word tells apart positions the first confuses
    assert not tt_lost(12345 + ROWS, 678, table, 1)


def test_a_full_bucket_replaces_a_stale_entry_first_then_the_cheapest_proof():
    table = TranspositionTable(4).entries
    old, *keys = SAME_BUCKET
    tt_store(old, 1, 5, table, 1)  # generation 1: stale in generation 2
    for work, key in zip([40, 10, 30], keys):
        tt_store(key, 1, work, table, 2)
    tt_store(keys[3], 1, 50, table, 2)  # the stale entry goes
    assert not tt_lost(old, 1, table, 1)
    assert all(tt_lost(key, 1, table, 2) for key in keys[:4])
    tt_store(keys[4], 1, 20, table, 2)  # a full bucket of this generation: the proof of work 10 goes
    assert not tt_lost(keys[1], 1, table, 2)
    assert all(tt_lost(key, 1, table, 2) for key in (keys[0], keys[2], keys[3], keys[4]))
