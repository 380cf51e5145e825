"""BOT-I18N-1: one number and date formatter (Babel) for messages, images and CSV files."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.i18n.numbers import (
    MINUS,
    format_data_number,
    format_date,
    format_number,
    format_signed,
    plural_category,
)


@pytest.mark.parametrize(
    ("value", "locale", "text"),
    [
        (31.8, "it", "31,8"),
        (31.8, "en", "31.8"),
        (14.25, "it", "14,25"),
        (31.0, "it", "31"),
        (1234.5, "it", "1.234,5"),
        (1234.5, "en", "1,234.5"),
        (-7, "it", f"{MINUS}7"),
        (-0.001, "it", "0"),
    ],
)
def test_bot_i18n_1_numbers_in_italian_use_the_decimal_comma(value: float, locale: str, text: str) -> None:
    assert format_number(value, locale) == text


def test_bot_i18n_1_data_files_get_plain_numbers_without_grouping() -> None:
    assert format_data_number(-1234.5, "it") == "-1234,5"
    assert format_data_number(1234.5, "en") == "1234.5"


def test_bot_i18n_1_signed_changes_and_dates() -> None:
    assert format_signed(2, "en") == "+2"
    assert format_signed(-25, "it") == f"{MINUS}25"
    assert format_date(dt.date(2026, 11, 24), "it") == "24 novembre 2026"
    assert format_date("2026-11-24", "en") == "24 November 2026"


def test_bot_i18n_1_plural_categories_of_italian_and_english() -> None:
    assert [plural_category(n, "it") for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_category(n, "en") for n in (0, 1, 2)] == ["other", "one", "other"]


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False))
def test_bot_i18n_1_italian_and_english_differ_only_in_separators(value: float) -> None:
    it = format_number(value, "it")
    en = format_number(value, "en")
    swap = it.replace(".", "\x00").replace(",", ".").replace("\x00", ",")
    assert swap == en


def test_bot_i18n_1_plural_forms_one_game_and_many_games():
    """'1 partita' / '1 game', never '(1 partite)' or 'request(s)' (every counted message: tests/test_i18n.py)."""
    from bot.i18n import catalogue, t

    one = t("standings.line", "it", rank=1, name="Anna", points="31,8", games=1, count=1, marker="")
    many = t("standings.line", "en", rank=1, name="Anna", points="31.8", games=2, count=2, marker="")
    assert "(1 partita)" in one and "(2 games)" in many
    assert t("round.publish_failed.other", "en", count=1) == "1 Discord request failed."
    assert t("round.publish_failed.other", "en", count=3) == "3 Discord requests failed."
    for locale in ("it", "en"):
        assert not [k for k, v in catalogue(locale).items() if "(s)" in v or "/e " in v or "/i " in v]
    assert t("round.publish_failed.other", "it", count=1) == "1 richiesta a Discord non è riuscita."
