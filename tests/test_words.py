"""Issue 44, "The catalogue check fails on: internal ids and codes in text, the gendered words above after a name,
the glossary's forbidden variants, hard-coded user text outside the catalogues; each listed item has a test."

Each rule of ``bot.i18n.words`` is fed a small bad example (so a rule that cannot fail cannot pass here), then the
issue's own examples, then ``python -m bot.i18n check`` end to end on a broken copy of the catalogues; last, the
real catalogues and code pass."""

from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

from bot.i18n import catalogues as cat
from bot.i18n import tool, words
from bot.i18n.words import Value

GLOSSARY_DATA = {
    "it": [
        {"use": "punti al tavolo", "avoid": ["punti tavolo"], "source": "ARB art. 12", "except": []},
        {"use": "patteggiamenti", "avoid": ["patti"], "source": "ARB", "except": []},
        {"use": "«", "avoid": ["“"], "source": "house style: Italian quotes", "except": []},
    ],
    "en": [{"use": "ruleset", "avoid": ["preset"], "source": "README", "except": []}],
    "gendered": {"it": ["capolista"]},
}


def check(*values: Value, glossary: words.Glossary | None = None) -> list[str]:
    return words.catalogue_problems(values, words.parse_glossary(GLOSSARY_DATA) if glossary is None else glossary)


def it(key: str, *texts: str) -> Value:
    return Value("it", "core", key, texts)


# --- 1. internal ids and codes --------------------------------------------------------------------------------

ISSUE_CODES = ("bad_table_size", "unknown_preset", "card_symbol_invalid", "too_many_players_for_points_table")


def test_the_engine_codes_are_read_from_the_rules_engine():
    """Issue 44: the codes the issue saw reaching people are among those the check knows."""
    codes = words.engine_codes()
    assert set(ISSUE_CODES) <= codes
    assert len(codes) > 100 and all("_" in code for code in codes)
    assert "risiko-ufficiali-2018" in words.preset_ids()


@pytest.mark.parametrize("code", ISSUE_CODES)
def test_issue_44_an_engine_code_in_a_value_is_refused(code: str):
    """Issue 44: «bad_table_size», «unknown_preset», … never reach a message, in either language, whatever the key
    (a command's name too) and even if people typed a word like it."""
    found = check(it("error.round_engine", f"Il sorteggio non si può fare: {code}."))
    assert f"it/core.po error.round_engine: engine code «{code}» (say what went wrong in words)" in found
    assert len(found) == 1, found  # one line: the code is not reported again as an identifier
    assert words.id_problems("x", "cmd.x.name", code, frozenset({code}), words.engine_codes(), ())
    assert check(it("error.round_engine", "Il sorteggio non si può fare: {bad_table_size}.")) == []


def test_issue_44_a_preset_id_in_a_value_is_refused():
    """Issue 44: every report card ended «regolamento risiko-ufficiali-2018»."""
    found = check(
        it("report.footer", "Inserito come: punti · regolamento risiko-ufficiali-2018"),
        Value("en", "reports", "report.footer", ("Entered as: points · rules ricochet-v3.3",)),
    )
    assert found == [
        "it/core.po report.footer: preset id «risiko-ufficiali-2018» (name the rulebook)",
        "en/reports.po report.footer: preset id «ricochet-v3.3» (name the rulebook)",
    ]
    assert check(it("report.footer", "Inserito come: punti · regolamento {preset}")) == []


def test_a_requirement_id_and_a_code_identifier_are_refused():
    """Issue 44 (internal ids): TOUR-FIN-1 and snake_case identifiers, but not the words people type."""
    found = check(it("round.chain", "catena dei ripescaggi (TOUR-FIN-1), cambia final_size"))
    assert any("internal id «TOUR-FIN-1»" in line for line in found)
    assert any("internal id «final_size»" in line for line in found)
    typed = it("cmd.report situation.opt.situation.description", "il documento: indica achieved_objective e territori")
    assert check(typed) == []  # a field of the situation documents, typed by people
    option = it("cmd.sanction give.opt.cards_in_hand.name", "carte_in_mano")
    assert check(option, it("help.x", "usa l'opzione carte_in_mano")) == []  # an option's name in Italian


# --- 2. gendered words beside a name --------------------------------------------------------------------------

ISSUE_GENDERED = ("Campione", "vincitore", "finalista diretto", "ripescato", "Diretto in finale")


@pytest.mark.parametrize("word", ISSUE_GENDERED)
def test_issue_44_a_gendered_word_after_a_name_is_refused(word: str):
    """Issue 44: "Campione", "vincitore", "finalista diretto", "ripescato", "Diretto in finale" on named players."""
    for text in (f"**{{name}}** — {word}", f"{{name}}: {word} della semifinale {{table}}", f"{{winner}} è {word}",
                 f"{{names}}  {word}", f"{word}: {{direct}}", f"{word}: **{{champion}}**"):  # fmt: skip
        found = check(it("round.source.x", text))
        assert found and all("beside a name gives a player a gender" in line for line in found), (text, found)
        assert f"«{word}»" in found[0], found


@pytest.mark.parametrize("word", ISSUE_GENDERED)
def test_issue_44_a_gendered_word_as_an_image_label_is_refused(word: str):
    """Issue 44: an image label sits beside a name («Campione» above the champion's name)."""
    found = check(it("img.champion", word))
    assert found == [
        f"it/core.po img.champion: the image label «{word}» sits beside a name and gives it a gender "
        "(say the act or the role: «ha vinto», «accede alla finale»)"
    ]


def test_the_gendered_words_are_found_in_any_gender_and_number_and_the_neutral_pass():
    """Issue 44: say the act or the role neutrally, as the rest of the catalogue already does."""
    assert check(it("x", "{names} ripescati dai turni"))
    assert check(it("x", "{names} — campioni"))
    assert check(it("x", "{name} — vincitrice"))
    for neutral in ("**{name}** ha vinto il torneo", "{name}: accede alla finale", "{name}: ha vinto la semifinale",
                    "Il campione in carica difende il titolo", "Vincitore del sorteggio: nessuno",
                    "{tournament} — vincitore", "img.x"):  # fmt: skip
        assert check(it("round.x", neutral)) == [], neutral
    assert check(it("img.header", "Ha vinto")) == []
    assert check(Value("en", "core", "img.champion", ("Champion",))) == []  # English has no gender here


def test_the_glossarys_gendered_words_are_refused_too():
    """Issue 44: the glossary's ``[gendered] it`` list adds to the issue's words."""
    assert check(it("x", "{name} capolista")) and check(it("img.leader", "Capolista"))
    assert check(it("x", "{name} capolista"), glossary=words.parse_glossary({})) == []


def test_the_participles_beside_a_name_are_refused():
    """BOT-I18N-1 / issue 44: the participle scan once in tests/test_i18n.py runs in the check."""
    for text in ("**{name}** arrivato al turno 2", "{name} si è iscritto", "Sei già iscritto a {tournament}."):
        assert any("gives a player a gender" in line for line in check(it("x", text))), text
    assert check(it("img.status", "Ritirato"))
    assert check(it("status.withdrawn", "ritirato"))


# --- 3. the glossary ------------------------------------------------------------------------------------------


def test_issue_44_a_glossary_variant_is_refused_in_its_language_only():
    """Issue 44 (13 term splits): "punti tavolo" where the rulebook says "punti al tavolo"."""
    found = check(it("report.line", "{name}: 62 Punti tavolo"), Value("en", "core", "report.line", ("punti tavolo",)))
    assert found == ["it glossary: key report.line says «Punti tavolo»: use «punti al tavolo» (ARB art. 12)"]


def test_a_variant_is_a_whole_word_and_a_sign_is_found_anywhere():
    assert check(it("x", "punti tavolone")) == [] and check(it("x", "i patti")) != []
    assert check(it("x", "i pattini")) == []
    assert check(it("x", "il “morto”")) == ["it glossary: key x says «“»: use ««» (house style: Italian quotes)"]
    assert check(Value("en", "core", "x", ("the PRESET",))) == [
        "en glossary: key x says «PRESET»: use «ruleset» (README)"
    ]


def test_a_key_the_glossary_excepts_may_say_the_variant():
    data = {"it": [{"use": "patteggiamenti", "avoid": ["patti"], "source": "ARB", "except": ["sanction.*.pact"]}]}
    glossary = words.parse_glossary(data)
    assert check(it("sanction.infraction.pact", "patti"), glossary=glossary) == []
    assert check(it("sanction.infraction.pact", "x"), it("sanction.infraction.other", "patti"), glossary=glossary)


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        ({"avoid": ["x"], "source": "ARB"}, "no use"),
        ({"use": "a", "source": "ARB"}, "no avoid"),
        ({"use": "a", "avoid": ["x"]}, "no source"),
        ({"use": "a", "avoid": [], "source": "ARB"}, "avoid lists no variant"),
        ({"use": "a", "avoid": "x", "source": "ARB"}, "avoid must be a list of variants"),
        ({"use": "a", "avoid": ["x"], "source": " "}, "source must say where the term comes from"),
        ({"use": "a", "avoid": ["x"], "source": "ARB", "note": "?"}, "unknown field note"),
        ({"use": "a", "avoid": ["punti al tavolo"], "source": "ARB"}, "avoids «punti al tavolo», the term another"),
    ],
)
def test_the_check_refuses_a_glossary_entry_that_is_wrong(entry: dict[str, object], problem: str):
    """Issue 44: each entry has use, avoid, source; no variant is what another entry uses."""
    data = {"it": [GLOSSARY_DATA["it"][0], entry]}
    assert any(problem in line for line in words.parse_glossary(data).problems), words.parse_glossary(data)
    assert any(problem in line for line in check(glossary=words.parse_glossary(data)))


def test_the_glossary_file_missing_unreadable_or_naming_a_key_that_is_not(tmp_path: Path):
    assert words.load_glossary(tmp_path / "glossary.toml").problems == ("glossary.toml: missing",)
    (tmp_path / "glossary.toml").write_text("[[it]\n", encoding="utf-8")
    assert "does not parse" in words.load_glossary(tmp_path / "glossary.toml").problems[0]
    (tmp_path / "glossary.toml").write_text(
        '[[it]]\nuse = "a"\navoid = ["b"]\nsource = "ARB"\nexcept = ["no.such.key"]\n[gendered]\nit = ["c"]\n',
        encoding="utf-8",
    )
    glossary = words.load_glossary(tmp_path / "glossary.toml")
    assert glossary.problems == () and glossary.gendered == {"it": ("c",)}
    assert words.glossary_problems(glossary, {"x.y"}) == ["glossary.toml: it «a» excepts no.such.key, which is no key"]


def test_the_real_glossary_is_sound():
    """Issue 44: the glossary CI reads parses, every entry has use, avoid and source, and it lists gendered words."""
    glossary = words.load_glossary()
    assert words.glossary_problems(glossary, cat.index()) == []
    assert glossary.terms and glossary.gendered.get("it")


# --- 4. hard-coded user text ----------------------------------------------------------------------------------

BUTTONS_BEFORE_ISSUE_44 = """
class SignButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"report:sign:(?P<table_id>[0-9]+)"):
    def __init__(self, table_id: int, *, disabled: bool = False, label: str = "Sign / Firma") -> None:
        super().__init__(discord.ui.Button(label=label[:80], custom_id=f"report:sign:{table_id}", emoji="✍️"))


class CountersignButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"report:countersign:(?P<t>[0-9]+)"):
    def __init__(self, table_id: int, *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label="Countersign / Controfirma", custom_id=f"countersign:{table_id}"))


async def my_games(self, interaction, games) -> None:
    for game in games.to_sign:
        buttons.add_item(SignButton(game.table_id, label=f"Sign / Firma — T{game.round_number}·{game.table_number}"))
"""


def test_issue_44_the_sign_and_countersign_labels_hard_coded_are_refused():
    """Issue 44: "the Sign / Countersign button labels hard-coded outside the catalogues"."""
    assert words.hard_coded_in(BUTTONS_BEFORE_ISSUE_44, "bot/cogs/reports/buttons.py") == [
        "bot/cogs/reports/buttons.py:3: hard-coded text 'Sign / Firma'",
        "bot/cogs/reports/buttons.py:9: hard-coded text 'Countersign / Controfirma'",
        "bot/cogs/reports/buttons.py:14: hard-coded text 'Sign / Firma — T{}·{}'",
    ]


@pytest.mark.parametrize(
    "code",
    [
        'discord.ui.Button(label="Sign")',
        'discord.ui.TextInput(label=t("x.y", locale), placeholder="per esempio 62")',
        'discord.Embed(title="Standings", colour=1)',
        'discord.Embed(description=f"{n} tables drawn")',
        'await interaction.response.send_message("Done!", ephemeral=True)',
        'await interaction.followup.send(content="Signed" if ok else "Not signed")',
        'await channel.send("Round " + str(n))',
        'await send(interaction, "Ciao")',
        'embed("Titolo", t("x.y", locale))',
        'out.add_field(name="Table", value=str(n))',
        'out.set_footer(text="page {n}".format(n=n))',
        'await message.pin(reason="rules desk answer")',
        'await thread.edit_message(1, content=" · ".join(["Turno", str(n)]))',
        'await channel.create_thread(name=f"Tavolo {n}")',
        'label = "Apply"\nbutton = discord.ui.Button(label=label)',
        'class Ask(discord.ui.Modal, title="Report"):\n    pass',
        'def make(label: str = "More / Altri"):\n    return discord.ui.Button(label=label[:80])',
        'web.Response(text="<p>Not found</p>", content_type="text/html")',
    ],
)
def test_words_written_in_the_code_where_people_read_them_are_refused(code: str):
    """Issue 44: a label, a title, a message, a field, a thread's name written in the code."""
    found = words.hard_coded_in(textwrap.dedent(code), "bot/cogs/x.py")
    assert found and all(re.fullmatch(r"bot/cogs/x\.py:\d+: hard-coded text '.*'", line) for line in found), found


@pytest.mark.parametrize(
    "code",
    [
        'discord.ui.Button(label=t("report.button.sign", locale), custom_id=f"report:sign:{table_id}", emoji="✍️")',
        'discord.ui.Button(label=None, custom_id="report:sign:1")',
        'discord.Embed(title=f"{a} · {b}", description="—")',
        'await send(interaction, "\\n".join(lines)[:1900], ephemeral=True)',
        'await interaction.followup.send(tr(interaction, "report.sign.done"), ephemeral=True)',
        'await interaction.followup.send("🏁")',
        'discord.ui.Button(label=f"T{n}·{m}")',
        'SignButton(1, label=tr(interaction, "report.button.sign_table", round=2, table=3))',
        'raise InvalidInput("error.rule.question_lost")',
        'log.warning("interaction %s had no handler", x)',
        '@app_commands.describe(tournament="The tournament whose players to list")\ndef f(): ...',
        '@app_commands.command(name="register", description="Register for a tournament")\ndef f(): ...',
        'app_commands.Choice(name="Points table", value="points")',
        'title = "A docstring-like word not passed to people"',
        'await response.write(b"retry: 1000")',
        'await send(f"retry: {RETRY_MS}\\n\\n".encode())',
        'web.Response(text="<!doctype html><html lang=it></html>", content_type="text/html")',
        'await channel.send(f"<@{user_id}> <#{channel_id}>")',
    ],
)
def test_keys_formats_and_the_translated_command_texts_pass(code: str):
    """Issue 44: keys, formats without words, emoji, custom ids, logs, the commands' texts (the Translator's)."""
    assert words.hard_coded_in(textwrap.dedent(code), "bot/cogs/x.py") == []


def test_the_allow_list_gives_a_reason_for_each_literal():
    assert words.ALLOWED_TEXT and all(len(reason) > 20 for reason in words.ALLOWED_TEXT.values())
    assert words.hard_coded_in('web.Response(text="ok")', "bot/web/app.py") == []
    assert words.hard_coded_in('web.Response(text="ok")', "bot/web/pages.py") != []


def test_the_real_code_passes_no_hard_coded_text():
    """Issue 44: every word the cogs, the present modules and the venue pages give people is in the catalogues."""
    assert words.hard_coded_text() == []


# --- the check CI runs ----------------------------------------------------------------------------------------


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the catalogues and of a little code the check is pointed at, to be broken on purpose."""
    shutil.copytree(cat.LOCALE_DIR, tmp_path / "locale", ignore=shutil.ignore_patterns("*.mo", "*.pot"))
    monkeypatch.setattr(cat, "LOCALE_DIR", tmp_path / "locale")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "keys_in_code", lambda: {})
    return tmp_path


def replace_text(po: Path, key: str, text: str) -> None:
    """The whole ``msgstr`` of ``key`` replaced by ``text`` (a message without plural forms)."""
    source = po.read_text(encoding="utf-8")
    pattern = rf'(msgctxt "{re.escape(key)}"\nmsgid (?:".*"\n)+)msgstr (?:".*"\n)+'
    changed, n = re.subn(pattern, lambda m: m.group(1) + f'msgstr "{text}"\n', source)
    assert n == 1, key
    po.write_text(changed, encoding="utf-8")


def test_python_m_bot_i18n_check_refuses_each_rule(
    scratch: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    """Issue 44: the command CI runs fails on each rule's bad example."""
    po = scratch / "locale/it/LC_MESSAGES/reports.po"
    glossary = scratch / "glossary.toml"
    glossary.write_text('[[it]]\nuse = "punti al tavolo"\navoid = ["punti tavolo"]\nsource = "ARB"\n', encoding="utf-8")
    monkeypatch.setattr(tool, "GLOSSARY", glossary)
    replace_text(po, "report.footer", "Inserito come: {kind} · {preset} · regolamento risiko-ufficiali-2018")
    replace_text(po, "report.sign.done", "Firma registrata: bad_table_size")
    replace_text(scratch / "locale/it/LC_MESSAGES/renderer.po", "img.champion", "Campione")
    replace_text(po, "report.sign.already", "Hai già firmato i punti tavolo.")
    (scratch / "bot/cogs").mkdir(parents=True)
    (scratch / "bot/cogs/x.py").write_text('discord.ui.Button(label="Sign")\n', encoding="utf-8")
    assert tool.main(["check"]) == 1
    out = capsys.readouterr().out
    for line in (
        "it/reports.po report.footer: preset id «risiko-ufficiali-2018» (name the rulebook)",
        "it/reports.po report.sign.done: engine code «bad_table_size» (say what went wrong in words)",
        "it/renderer.po img.champion: the image label «Campione» sits beside a name",
        "it glossary: key report.sign.already says «punti tavolo»: use «punti al tavolo» (ARB)",
        "bot/cogs/x.py:1: hard-coded text 'Sign'",
    ):
        assert line in out, line


def test_the_real_catalogues_and_code_pass_the_word_rules():
    """Issue 44 acceptance: ``python -m bot.i18n check`` finds no internal id or code, no gendered word beside a
    name, no variant the glossary avoids, no hard-coded text in the real catalogues and code."""
    found = words.catalogue_problems(tool.catalogue_values()) + words.hard_coded_text()
    assert found == []
