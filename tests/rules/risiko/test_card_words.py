"""Card symbols by the words players use (RK-TRIS-1): one table, ``SYMBOL_WORDS``, read by ``Symbol.read`` for
Discord (`/risiko cards`), the CLI's JSON (`steward risiko cards`) and the engine's ``Card.parse``."""

import io
import json

import pytest

from bot.rules.risiko.board import standard_board
from bot.rules.risiko.cards import SYMBOL_WORDS, Card, Symbol
from bot.rules.risiko.errors import RisikoError

# What the /risiko cards command accepted before the table moved into the engine: nothing is lost.
COG_WORDS_BEFORE = {
    "cannone": "cannon", "cannoni": "cannon", "cannon": "cannon", "artiglieria": "cannon", "c": "cannon",
    "fante": "infantry", "fanti": "infantry", "fanteria": "infantry", "infantry": "infantry", "f": "infantry",
    "i": "infantry", "cavaliere": "cavalry", "cavalieri": "cavalry", "cavalleria": "cavalry", "cavalry": "cavalry",
    "jolly": "jolly", "joker": "jolly", "j": "jolly",
}  # fmt: skip


@pytest.mark.parametrize(("word", "value"), sorted(COG_WORDS_BEFORE.items()))
def test_every_word_the_command_knew_still_names_its_symbol(word: str, value: str):
    assert Symbol.read(word) is Symbol(value)


def test_the_engine_values_italian_singular_and_plural_and_english_all_read():
    for symbol in Symbol:
        assert Symbol.read(symbol.value) is symbol
    assert {w: s.value for w, s in SYMBOL_WORDS.items() if w in ("cannoni", "fanti", "cavalieri", "artillery")} == {
        "cannoni": "cannon", "fanti": "infantry", "cavalieri": "cavalry", "artillery": "cannon"}  # fmt: skip
    assert Symbol.read("artiglierie") is Symbol.CANNON and Symbol.read("fanterie") is Symbol.INFANTRY
    assert Symbol.read("cavallerie") is Symbol.CAVALRY and Symbol.read("cavalli") is Symbol.CAVALRY


def test_case_accents_and_spaces_do_not_matter():
    assert Symbol.read("  CANNONE ") is Symbol.CANNON
    assert Symbol.read("Cavallerìa") is Symbol.CAVALRY
    assert Symbol.read("Jólly") is Symbol.JOLLY
    assert all(w == w.strip().casefold() and w.isascii() for w in SYMBOL_WORDS)  # the table's keys are plain


@pytest.mark.parametrize("word", ["spada", "", "cannone fante", 5, None, ["cannone"]])
def test_anything_else_is_refused_with_a_code(word: object):
    with pytest.raises(RisikoError) as refused:
        Symbol.read(word)
    assert refused.value.code == "card_symbol_invalid"


def test_card_parse_reads_the_words_and_the_territory_in_any_spelling():
    board = standard_board()
    assert Card.parse("fanti", board) == Card(Symbol.INFANTRY)
    assert Card.parse({"symbol": "Cannone", "territory": "cina"}, board) == Card(Symbol.CANNON, "Cina")
    assert Card.parse({"symbol": "cavalleria", "territory": "Peru"}, board) == Card(Symbol.CAVALRY, "Perù")
    assert Card.parse("joker", board) == Card(Symbol.JOLLY)
    assert Card.parse({"symbol": "cannon", "territory": "Cina"}, board).serialise() == {
        "symbol": "cannon", "territory": "Cina"}  # fmt: skip
    with pytest.raises(RisikoError) as refused:
        Card.parse({"symbol": "jolly", "territory": "Cina"}, board)
    assert refused.value.code == "jolly_has_no_territory"
    with pytest.raises(RisikoError) as refused:
        Card.parse({"symbol": "spada"}, board)
    assert refused.value.code == "card_symbol_invalid"


def test_the_cli_takes_italian_card_names(capsys, monkeypatch):
    from bot.cli import main

    payload = {"preset": "risiko-ufficiali-2018", "cards": [{"symbol": "cannone", "territory": "Cina"}, "Cannoni",
               "artiglieria"], "territories": ["cina"]}  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(payload)))
    assert main(["risiko", "cards", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["set"]["kind"] == "three_cannons" and out["set"]["bonus_territories"] == ["Cina"]
    assert out["set"]["cards"][0] == {"symbol": "cannon", "territory": "Cina"}


def test_discord_reads_the_same_words():
    from bot.cogs.adjudicators.risiko import parse_cards
    from bot.errors import InvalidInput

    assert parse_cards("Cannoni, fanteria JOLLY") == ["cannon", "infantry", "jolly"]
    assert parse_cards("cavallo cavalli artiglierie") == ["cavalry", "cavalry", "cannon"]
    for text in ("cannone spada fante", "123", "cannone e fante"):
        with pytest.raises(InvalidInput):
            parse_cards(text)
