"""Paper for the venue: an A4 PDF from the whole-tournament export (``steward-export/1``) — one sheet per table of a
round (seats, clubs, objective boxes, signature lines, a QR code to the table on the venue page), the round's
pairings sorted by name for the door, and the standings (the final classification once it exists).

Pure: an :class:`~bot.rules.tournament.export.ExportDocument` and a language in, PDF bytes out; no database, no
Discord, no clock. The words come from the message catalogue (``paper.*``), numbers and dates from the project's
one formatter. The text is real PDF text (searchable, ``pdftotext`` reads it back) in the renderer's DejaVu faces,
embedded as subsets; the QR code is drawn as vector squares (segno's module matrix), so it stays sharp on any
printer. The same export gives the same bytes (reportlab's *invariant* mode: no creation time, a fixed id).

``/print round`` and ``/print standings`` (``bot.cogs.paper``) and ``steward print`` (``bot.tools.paper``) call
these functions; the bot runs them in its worker threads (a 250-player round takes well under a second:
``benchmarks/paper.py``).
"""

from __future__ import annotations

import io
import threading
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import segno
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from bot.i18n import format_number, normalise_locale, t
from bot.i18n.numbers import format_date
from bot.rules.tournament.export import ExportDocument, ExportPlayer, ExportRound, ExportTable

REGULAR = "StewardSans"
BOLD = "StewardSans-Bold"
FONT_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}  # the renderer's bundled faces

WIDTH, HEIGHT = A4
MARGIN = 15 * mm
INK = (0.1, 0.1, 0.1)
GREY = (0.42, 0.42, 0.42)
RULE = (0.75, 0.75, 0.75)
SHADE = (0.93, 0.93, 0.93)
QR_SIZE = 36 * mm
ELLIPSIS = "…"

_LOCK = threading.Lock()  # reportlab's font registry and a TrueType font's subset state are shared by the process


class PaperError(ValueError):
    """What the export cannot print: ``code`` (``no_round``, ``no_rounds``, ``no_standings``) and its values."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        detail = ", ".join(f"{k} {v}" for k, v in params.items())
        super().__init__(f"{code}" + (f" ({detail})" if detail else ""))


@cache
def _register_fonts() -> None:
    for name, filename in FONT_FILES.items():
        data = resources.files("renderer").joinpath("fonts", filename).read_bytes()
        pdfmetrics.registerFont(TTFont(name, io.BytesIO(data)))


# ------------------------------------------------------------------------------------------------ what is printed


def latest_round(doc: ExportDocument) -> int:
    """The number of the latest round that has tables (the one being played, or the last one)."""
    drawn = [r.number for r in doc.rounds if r.tables]
    if not drawn:
        raise PaperError("no_rounds")
    return max(drawn)


def round_of(doc: ExportDocument, number: int) -> ExportRound:
    """Round ``number`` of the export, with its tables (``PaperError`` ``no_round`` when it has none)."""
    found = next((r for r in doc.rounds if r.number == number and r.tables), None)
    if found is None:
        raise PaperError("no_round", round=number)
    return found


def table_url(venue_url: str, table: int) -> str:
    """The venue page's card of table ``table`` (the page gives each card the id ``table-<n>``)."""
    return f"{venue_url.split('#', 1)[0]}#table-{table}"


def sort_key(name: str) -> tuple[str, str]:
    """Names as a person looks them up at the door: case and accents ignored first (Ömer beside Omar)."""
    folded = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()
    return folded, name


@dataclass(frozen=True, slots=True)
class Pairing:
    player: ExportPlayer
    table: int
    seat: int


def pairings_of(doc: ExportDocument, number: int) -> list[Pairing]:
    """Everyone seated in round ``number``, sorted by name (then club and id: homonyms keep a fixed order)."""
    rnd = round_of(doc, number)
    players = {p.id: p for p in doc.players}
    rows = [Pairing(players[pid], table.number, seat) for table in rnd.tables
            for seat, pid in enumerate(table.seats, start=1)]  # fmt: skip
    return sorted(rows, key=lambda r: (*sort_key(r.player.name), r.player.club or "", r.player.id))


def _kind_label(rnd: ExportRound, locale: str) -> str:
    """Qualifying round, semifinal or final; a knockout's last round is the final whatever its kind (NP-FMT-1), as
    the draw document stored with the round says (where ``standings_document`` reads it too)."""
    draw = rnd.draw or {}
    engine = draw.get("engine")
    knockout = draw.get("knockout") or (engine.get("knockout") if isinstance(engine, dict) else None)
    kind = "final" if isinstance(knockout, dict) and knockout.get("final") else rnd.kind
    return t(f"paper.kind.{kind}", locale)


def _club(player: ExportPlayer) -> str:
    return " · ".join(part for part in (player.club, player.team) if part)


# ------------------------------------------------------------------------------------------------ drawing helpers


def _fit(text: str, font: str, size: float, width: float, *, smallest: float | None = None) -> tuple[str, float]:
    """``text`` at ``size``, shrunk down to ``smallest`` (¾ of ``size``) to fit ``width``, then cut with an
    ellipsis."""
    smallest = size * 0.75 if smallest is None else smallest
    natural = pdfmetrics.stringWidth(text, font, size)
    if natural <= width:
        return text, size
    shrunk = int(size * width / natural * 10) / 10  # the width grows with the size: one division finds it
    if shrunk >= smallest:
        return text, shrunk
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if pdfmetrics.stringWidth(text[:mid].rstrip() + ELLIPSIS, font, smallest) <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + ELLIPSIS, smallest


class _Pages:
    """A canvas with the house style: fonts, colours, a footer on every page (``page x of y``)."""

    def __init__(self, title: str, footer: str, locale: str, total: int) -> None:
        self.buffer = io.BytesIO()
        self.canvas = Canvas(
            self.buffer, pagesize=A4, invariant=1, pageCompression=1, lang=locale, initialFontName=REGULAR
        )
        self.canvas.setTitle(title)
        self.canvas.setAuthor("Tournament Steward")
        self.canvas.setCreator("Tournament Steward")
        self.footer = footer
        self.locale = locale
        self.total = max(1, total)
        self.page = 0

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        font: str = REGULAR,
        size: float = 10,
        colour: tuple[float, float, float] = INK,
        width: float | None = None,
        align: str = "left",
    ) -> None:
        if width is not None:
            text, size = _fit(text, font, size, width)
        c = self.canvas
        c.setFillColorRGB(*colour)
        c.setFont(font, size)
        if align == "right":
            c.drawRightString(x, y, text)
        elif align == "centre":
            c.drawCentredString(x, y, text)
        else:
            c.drawString(x, y, text)

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        *,
        colour: tuple[float, float, float] = INK,
        width: float = 0.6,
    ) -> None:
        c = self.canvas
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(width)
        c.line(x1, y1, x2, y2)

    def box(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        colour: tuple[float, float, float] = INK,
        fill: tuple[float, float, float] | None = None,
        width: float = 0.6,
        radius: float = 0,
    ) -> None:
        c = self.canvas
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(width)
        if fill is not None:
            c.setFillColorRGB(*fill)
        if radius:
            c.roundRect(x, y, w, h, radius, stroke=1, fill=int(fill is not None))
        else:
            c.rect(x, y, w, h, stroke=1, fill=int(fill is not None))

    def shade(self, x: float, y: float, w: float, h: float) -> None:
        c = self.canvas
        c.setFillColorRGB(*SHADE)
        c.rect(x, y, w, h, stroke=0, fill=1)

    def qr(self, url: str, x: float, y: float, size: float) -> None:
        """``url`` as a QR code (error correction M) whose quiet zone fits in ``size``. The dark modules are one
        path of rectangles, a row's run of modules one rectangle, written in module units under a scaling (whole
        numbers: a 62-table round's codes cost milliseconds to write, not a second of number formatting)."""
        matrix = segno.make(url, error="m", micro=False).matrix
        count = len(matrix) + 8  # four modules of quiet zone on each side
        module = size / count
        c = self.canvas
        c.saveState()
        c.setFillColorRGB(1, 1, 1)
        c.rect(x, y, size, size, stroke=0, fill=1)
        c.translate(x + 4 * module, y + size - 4 * module)
        c.scale(module, -module)  # one unit per module, rows downwards
        runs = []
        for r, row in enumerate(matrix):
            col, width = 0, len(row)
            while col < width:
                if not row[col]:
                    col += 1
                    continue
                start = col
                while col < width and row[col]:
                    col += 1
                runs.append(f"{start} {r} {col - start} 1 re")
        c.addLiteral("0 g\n" + "\n".join(runs) + "\nf")
        c.restoreState()

    def finish_page(self, note: str | None = None) -> None:
        self.page += 1
        y = MARGIN - 6 * mm
        self.line(MARGIN, MARGIN - 2.5 * mm, WIDTH - MARGIN, MARGIN - 2.5 * mm, colour=RULE, width=0.4)
        page = t("paper.footer.page", self.locale, page=self.page, pages=self.total)
        self.text(WIDTH - MARGIN, y, page, size=7.5, colour=GREY, align="right")
        right = pdfmetrics.stringWidth(page, REGULAR, 7.5) + 6 * mm
        left = self.footer if not note else f"{self.footer} · {note}"
        self.text(MARGIN, y, left, size=7.5, colour=GREY, width=WIDTH - 2 * MARGIN - right)
        self.canvas.showPage()

    def bytes(self) -> bytes:
        self.canvas.save()
        return self.buffer.getvalue()


def _footer(doc: ExportDocument) -> str:
    return f"{doc.tournament.name} · Tournament Steward"


def _build(draw: Callable[[], bytes]) -> bytes:
    with _LOCK:
        _register_fonts()
        return draw()


# ------------------------------------------------------------------------------------------------ the table sheets


def table_sheets(doc: ExportDocument, number: int, *, locale: str = "it", venue_url: str | None = None) -> bytes:
    """One A4 sheet per table of round ``number``: the table and round in large type, each seat with the player's
    name and club, an objective box (RisiKo!), a box for the table points and a signature line; start and end
    times, the referee's signature and notes; a QR code to ``<venue_url>#table-<n>`` (none without ``venue_url``:
    the footer says so)."""
    locale = normalise_locale(locale)
    rnd = round_of(doc, number)
    players = {p.id: p for p in doc.players}
    tables = sorted(rnd.tables, key=lambda x: x.number)

    def draw() -> bytes:
        title = t("paper.sheet.title", locale, tournament=doc.tournament.name, round=rnd.number)
        pages = _Pages(title, _footer(doc), locale, len(tables))
        note = None if venue_url else t("paper.no_qr", locale)
        for table in tables:
            _table_page(pages, doc, rnd, table, players, locale, venue_url)
            pages.finish_page(note)
        return pages.bytes()

    return _build(draw)


def _table_page(
    pages: _Pages,
    doc: ExportDocument,
    rnd: ExportRound,
    table: ExportTable,
    players: dict[int, ExportPlayer],
    locale: str,
    venue_url: str | None,
) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    top = HEIGHT - MARGIN
    head_width = right - left - (QR_SIZE + 6 * mm if venue_url else 0)
    pages.text(left, top - 12, doc.tournament.name, font=BOLD, size=13, width=head_width)
    sub = [_kind_label(rnd, locale)]
    if rnd.date:
        sub.append(format_date(rnd.date, locale))
    if table.group:
        sub.append(t("paper.sheet.group", locale, group=table.group))
    pages.text(left, top - 28, " · ".join(sub), size=10, colour=GREY, width=head_width)
    pages.text(left, top - 76, t("paper.sheet.table", locale, table=table.number), font=BOLD, size=44,
               width=head_width)  # fmt: skip
    seated = t("paper.players", locale, count=len(table.seats))
    pages.text(left, top - 104, f"{t('paper.sheet.round', locale, round=rnd.number)} · {seated}", font=BOLD, size=16,
               width=head_width)  # fmt: skip
    if venue_url:
        url = table_url(venue_url, table.number)
        qx, qy = right - QR_SIZE, top - QR_SIZE
        pages.qr(url, qx, qy, QR_SIZE)
        pages.text(qx + QR_SIZE / 2, qy - 8, t("paper.sheet.qr", locale), size=7.5, colour=GREY, align="centre",
                   width=QR_SIZE + 4 * mm)  # fmt: skip
        pages.text(qx + QR_SIZE / 2, qy - 16, url, size=5.5, colour=GREY, align="centre", width=QR_SIZE + 4 * mm)

    risiko = doc.tournament.game == "risiko"
    seat_w, points_w, objective_w = 26.0, 64.0, (118.0 if risiko else 0.0)
    name_x = left + seat_w + 8
    sign_x = right - 118
    points_x = sign_x - 10 - points_w
    objective_x = points_x - 10 - objective_w
    name_w = (objective_x if risiko else points_x) - 10 - name_x

    header_y = top - 150
    labels = [(name_x, t("paper.sheet.player", locale)), (points_x, t("paper.sheet.points", locale)),
              (sign_x, t("paper.sheet.signature", locale))]  # fmt: skip
    if risiko:
        labels.append((objective_x, t("paper.sheet.objective", locale)))
    pages.text(left, header_y, t("paper.sheet.seat", locale), size=8, colour=GREY)
    for x, label in labels:
        pages.text(x, header_y, label, size=8, colour=GREY, width=118)
    pages.line(left, header_y - 5, right, header_y - 5, colour=RULE)

    room = header_y - 8 - (MARGIN + 150)  # the times, the referee and a notes box of at least 100 pt below
    row_h = min(80.0, room / max(1, len(table.seats)))
    y = header_y - 8
    for seat, pid in enumerate(table.seats, start=1):
        player = players[pid]
        mid = y - row_h / 2
        pages.box(left, mid - 12, 24, 24, radius=4, width=0.9)
        pages.text(left + 12, mid - 5.5, str(seat), font=BOLD, size=14, align="centre")
        club = _club(player)
        name_y = mid + (2 if club else -5)
        pages.text(name_x, name_y, player.name, font=BOLD, size=14, width=name_w)
        if club:
            pages.text(name_x, mid - 12, club, size=9.5, colour=GREY, width=name_w)
        box_h = min(40.0, row_h - 12)
        if risiko:
            pages.box(objective_x, mid - box_h / 2, objective_w, box_h, colour=GREY)
            pages.box(objective_x + objective_w - 10, mid - box_h / 2 + 3, 7, 7, colour=GREY, width=0.5)
            pages.text(objective_x + objective_w - 12, mid - box_h / 2 + 4, t("paper.sheet.achieved", locale),
                       size=6, colour=GREY, align="right")  # fmt: skip
        pages.box(points_x, mid - box_h / 2, points_w, box_h, colour=GREY)
        pages.line(sign_x, mid - box_h / 2 + 2, right, mid - box_h / 2 + 2, colour=INK, width=0.5)
        y -= row_h
        pages.line(left, y, right, y, colour=RULE, width=0.4)

    # the table's end: times, the referee's signature, notes
    y -= 30
    half = (right - left) / 2
    for k, key in enumerate(("paper.sheet.start", "paper.sheet.end")):
        x = left + k * half / 2
        pages.text(x, y, t(key, locale), size=9, colour=GREY)
        pages.line(x + 38, y - 2, x + half / 2 - 12, y - 2, width=0.5)
    pages.text(left + half, y, t("paper.sheet.referee", locale), size=9, colour=GREY)
    pages.line(left + half + 52, y - 2, right, y - 2, width=0.5)
    notes_top = y - 16
    pages.box(left, MARGIN + 4, right - left, notes_top - MARGIN - 4, colour=GREY)
    pages.text(left + 5, notes_top - 11, t("paper.sheet.notes", locale), size=8, colour=GREY)


# ------------------------------------------------------------------------------------------------ tables of rows


@dataclass(frozen=True, slots=True)
class _Column:
    label: str
    width: float  # a share of the line's width
    align: str = "left"
    font: str = REGULAR
    size: float = 11


ROW_H = 18.0


def _listing(
    title: str,
    subtitle: str,
    columns: Sequence[_Column],
    rows: Sequence[Sequence[str]],
    doc: ExportDocument,
    locale: str,
) -> bytes:
    """A title, then the rows under a header repeated on every page, shaded every other line."""
    left, right = MARGIN, WIDTH - MARGIN
    first_top = HEIGHT - MARGIN - 74
    next_top = HEIGHT - MARGIN - 20
    per_first = max(1, int((first_top - MARGIN - 10) // ROW_H))
    per_next = max(1, int((next_top - MARGIN - 10) // ROW_H))
    total = 1 if len(rows) <= per_first else 1 + -(-(len(rows) - per_first) // per_next)
    share = sum(c.width for c in columns)
    widths = [(right - left) * c.width / share for c in columns]

    def draw() -> bytes:
        pages = _Pages(f"{doc.tournament.name} · {title}", _footer(doc), locale, total)
        index = 0
        for page in range(total):
            top = HEIGHT - MARGIN
            if page == 0:
                pages.text(left, top - 12, doc.tournament.name, size=11, colour=GREY, width=right - left)
                pages.text(left, top - 36, title, font=BOLD, size=20, width=right - left)
                pages.text(left, top - 52, subtitle, size=10, colour=GREY, width=right - left)
                y = first_top
                count = per_first
            else:
                pages.text(left, top - 10, title, font=BOLD, size=11, colour=GREY, width=right - left)
                y = next_top
                count = per_next
            _header_row(pages, columns, widths, y)
            y -= 6
            for k, row in enumerate(rows[index : index + count]):
                if k % 2:
                    pages.shade(left, y - ROW_H, right - left, ROW_H)
                _row(pages, columns, widths, row, y - ROW_H + 5)
                y -= ROW_H
            index += count
            pages.finish_page()
        return pages.bytes()

    return _build(draw)


def _header_row(pages: _Pages, columns: Sequence[_Column], widths: Sequence[float], y: float) -> None:
    x = MARGIN
    for column, w in zip(columns, widths, strict=True):
        anchor = x + w - 4 if column.align == "right" else x + 4
        pages.text(anchor, y, column.label, size=8, colour=GREY, align=column.align, width=w - 8)
        x += w
    pages.line(MARGIN, y - 4, WIDTH - MARGIN, y - 4, colour=RULE)


def _row(pages: _Pages, columns: Sequence[_Column], widths: Sequence[float], row: Sequence[str], y: float) -> None:
    x = MARGIN
    for column, w, value in zip(columns, widths, row, strict=True):
        if value:
            anchor = x + w - 4 if column.align == "right" else x + 4
            pages.text(anchor, y, value, font=column.font, size=column.size, align=column.align, width=w - 8)
        x += w


# ------------------------------------------------------------------------------------------------ the pairings


def pairings(doc: ExportDocument, number: int, *, locale: str = "it") -> bytes:
    """Round ``number``'s pairings for the door: every seated player sorted by name, with club, table and seat."""
    locale = normalise_locale(locale)
    rnd = round_of(doc, number)
    rows = [(p.player.name, _club(p.player), str(p.table), str(p.seat)) for p in pairings_of(doc, number)]
    columns = (
        _Column(t("paper.sheet.player", locale), 46, font=BOLD, size=12),
        _Column(t("paper.club", locale), 34, size=10),
        _Column(t("paper.pairings.table", locale), 11, align="right", font=BOLD, size=13),
        _Column(t("paper.sheet.seat", locale), 9, align="right"),
    )
    title = t("paper.pairings.title", locale, round=rnd.number)
    subtitle = " · ".join([_kind_label(rnd, locale), t("paper.players", locale, count=len(rows)),
                           t("paper.tables", locale, count=len(rnd.tables))])  # fmt: skip
    return _listing(title, subtitle, columns, rows, doc, locale)


# ------------------------------------------------------------------------------------------------ the standings


def stage_label(doc: ExportDocument, player: int, stage: str | None, locale: str) -> str:
    """Where a final place was decided, from the export's own rounds: the final, a semifinal's table, a knockout
    round's table, or the qualifying standings."""
    if stage is None:
        return ""
    if stage == "final":
        return t("paper.stage.final", locale)
    if stage == "qualifying":
        return t("paper.stage.qualifying", locale)
    kinds = ("semifinal",) if stage == "semifinal" else ("qualifying", "semifinal", "final")
    seated = [(r.number, tb.number) for r in doc.rounds if r.kind in kinds for tb in r.tables if player in tb.seats]
    round_no, table = max(seated) if seated else (None, None)
    if stage == "semifinal":
        return t("paper.stage.semifinal", locale, table=table or "—")
    return t("paper.stage.knockout", locale, round=round_no or "—", table=table or "—")


def _points(value: float, locale: str) -> str:
    return format_number(value, locale)


def standings(doc: ExportDocument, *, locale: str = "it") -> bytes:
    """The final classification when the export has one (places, where each was decided, qualifying points), else
    the standings (rank, points, games, table points; withdrawn and disqualified players marked)."""
    locale = normalise_locale(locale)
    players = {p.id: p for p in doc.players}
    lines = {s.player: s for s in doc.standings}
    rows: list[tuple[str, ...]]
    if doc.final_classification:
        title = t("paper.final.title", locale)
        columns: tuple[_Column, ...] = (
            _Column(t("paper.final.place", locale), 8, align="right", font=BOLD, size=12),
            _Column(t("paper.sheet.player", locale), 34, font=BOLD),
            _Column(t("paper.club", locale), 25, size=9.5),
            _Column(t("paper.final.stage", locale), 21, size=9.5),
            _Column(t("paper.final.points", locale), 12, align="right"),
        )
        rows = [
            (
                str(place.place) if place.place is not None else "—",
                players[place.player].name,
                _club(players[place.player]),
                stage_label(doc, place.player, place.stage, locale),
                _points(lines[place.player].points, locale) if place.player in lines else "",
            )
            for place in doc.final_classification
        ]
    elif doc.standings:
        title = t("paper.standings.title", locale)
        columns = (
            _Column(t("paper.standings.rank", locale), 8, align="right", font=BOLD, size=12),
            _Column(t("paper.sheet.player", locale), 38, font=BOLD),
            _Column(t("paper.club", locale), 24, size=9.5),
            _Column(t("paper.standings.points", locale), 11, align="right", font=BOLD),
            _Column(t("paper.standings.games", locale), 8, align="right"),
            _Column(t("paper.sheet.points", locale), 11, align="right"),
        )
        rows = [
            (
                str(s.rank),
                _standing_name(players[s.player], s.standing, locale),
                _club(players[s.player]),
                _points(s.points, locale),
                str(s.games),
                _points(s.table_points, locale),
            )
            for s in doc.standings
        ]
    else:
        raise PaperError("no_standings")
    played = sorted({r.number for r in doc.rounds if any(tb.report.results for tb in r.tables)})
    subtitle = t("paper.players", locale, count=len(rows))
    if played:
        subtitle += " · " + t("paper.standings.rounds", locale, count=len(played))
    return _listing(title, subtitle, columns, rows, doc, locale)


def _standing_name(player: ExportPlayer, standing: str, locale: str) -> str:
    if standing in ("withdrawn", "disqualified"):
        return f"{player.name} ({t(f'paper.standing.{standing}', locale)})"
    return player.name
