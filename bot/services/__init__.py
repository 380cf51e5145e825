"""Use cases, one transaction each. Services call bot.rules for decisions and bot.db for state; no discord.

``Services`` is the composition object the bot, the CLI and the demo share: build it once from a
sessionmaker and a clock, then call ``services.tournaments.create(...)`` etc.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.models import ReminderKind as ReminderKind  # what a scheduled message is, for those who word it
from bot.db.models import utcnow
from bot.db.session import is_busy as is_busy  # the database could not be had in time: "try again", not an error
from bot.services.adjudicators import AdjudicatorService, RicochetAdjudicator, ScoringDesk
from bot.services.calls import CallService
from bot.services.checkins import CheckInService
from bot.services.classification import ClassificationService
from bot.services.clocks import ClockService
from bot.services.deliveries import DeliveryService
from bot.services.exports import ExportService
from bot.services.imports import ImportService
from bot.services.latecomers import LatecomerService
from bot.services.members import MemberService
from bot.services.publishing import PublishingService
from bot.services.registrations import RegistrationService
from bot.services.report_page import ReportPageService
from bot.services.reports import ReportService
from bot.services.roster import RosterService
from bot.services.rounds import RoundService, new_seed
from bot.services.rulebook import RulebookService
from bot.services.sanction_proposals import SanctionProposalService
from bot.services.sanctions import SanctionService
from bot.services.schedules import ScheduleService
from bot.services.season_games import SeasonGameService
from bot.services.seasons import SeasonService
from bot.services.setup import SetupService
from bot.services.standings import StandingsService
from bot.services.tournaments import TournamentService
from bot.services.venue import VenueService
from bot.workers import Workers, default_workers

Clock = Callable[[], datetime]


@dataclass
class Services:
    sessionmaker: async_sessionmaker[AsyncSession]
    clock: Clock = utcnow
    seed_source: Callable[[], int] = new_seed  # draw seeds: the OS by default; a seeded source in the demo
    workers: Workers = field(default_factory=default_workers)  # the bounded executors of the CPU-heavy work
    setup: SetupService = field(init=False)
    members: MemberService = field(init=False)
    tournaments: TournamentService = field(init=False)
    registrations: RegistrationService = field(init=False)
    roster: RosterService = field(init=False)
    sanctions: SanctionService = field(init=False)
    proposals: SanctionProposalService = field(init=False)
    calls: CallService = field(init=False)
    latecomers: LatecomerService = field(init=False)
    checkins: CheckInService = field(init=False)
    standings: StandingsService = field(init=False)
    classification: ClassificationService = field(init=False)
    exports: ExportService = field(init=False)
    publishing: PublishingService = field(init=False)
    imports: ImportService = field(init=False)
    seasons: SeasonService = field(init=False)
    season_games: SeasonGameService = field(init=False)
    reports: ReportService = field(init=False)
    report_pages: ReportPageService = field(init=False)
    rounds: RoundService = field(init=False)
    schedules: ScheduleService = field(init=False)
    clocks: ClockService = field(init=False)
    deliveries: DeliveryService = field(init=False)
    rulebook: RulebookService = field(init=False)
    adjudicators: AdjudicatorService = field(init=False)
    ricochet: RicochetAdjudicator = field(init=False)
    scoring: ScoringDesk = field(init=False)
    venue: VenueService = field(init=False)

    def __post_init__(self) -> None:
        self.setup = SetupService(self.sessionmaker, self.clock, workers=self.workers)
        self.members = MemberService(self.sessionmaker, self.clock, workers=self.workers)
        self.tournaments = TournamentService(self.sessionmaker, self.clock, workers=self.workers)
        self.registrations = RegistrationService(self.sessionmaker, self.clock, workers=self.workers)
        self.roster = RosterService(self.sessionmaker, self.clock, workers=self.workers)
        self.sanctions = SanctionService(self.sessionmaker, self.clock, workers=self.workers)
        self.proposals = SanctionProposalService(self.sessionmaker, self.clock, workers=self.workers)
        self.proposals.desk = self.sanctions
        self.calls = CallService(self.sessionmaker, self.clock, workers=self.workers)
        self.latecomers = LatecomerService(self.sessionmaker, self.clock, workers=self.workers)
        self.checkins = CheckInService(self.sessionmaker, self.clock, workers=self.workers)
        self.standings = StandingsService(self.sessionmaker, self.clock, workers=self.workers)
        self.classification = ClassificationService(self.sessionmaker, self.clock, workers=self.workers)
        self.classification.standings = self.standings
        self.exports = ExportService(self.sessionmaker, self.clock, workers=self.workers)
        self.exports.standings = self.standings
        self.publishing = PublishingService(self.sessionmaker, self.clock, workers=self.workers)
        self.publishing.standings = self.standings
        self.imports = ImportService(self.sessionmaker, self.clock, workers=self.workers)
        self.seasons = SeasonService(self.sessionmaker, self.clock, workers=self.workers)
        self.seasons.standings = self.standings
        self.seasons.desk = self.sanctions
        self.season_games = SeasonGameService(self.sessionmaker, self.clock, workers=self.workers)
        self.reports = ReportService(self.sessionmaker, self.clock, workers=self.workers)
        self.rounds = RoundService(self.sessionmaker, self.clock, self.seed_source, workers=self.workers)
        self.schedules = ScheduleService(self.sessionmaker, self.clock, workers=self.workers)
        self.clocks = ClockService(self.sessionmaker, self.clock, workers=self.workers)
        self.deliveries = DeliveryService(self.sessionmaker, self.clock, workers=self.workers)
        self.rulebook = RulebookService(self.sessionmaker, self.clock, workers=self.workers)
        self.adjudicators = AdjudicatorService(self.sessionmaker, self.clock, workers=self.workers)
        self.ricochet = RicochetAdjudicator(self.sessionmaker, self.clock, workers=self.workers)
        self.scoring = ScoringDesk(self.sessionmaker, self.clock, workers=self.workers)
        self.venue = VenueService(self.sessionmaker, self.clock, workers=self.workers)
        self.venue.standings = self.standings  # the page reads the same standings and season as the commands
        self.venue.seasons = self.seasons
        self.report_pages = ReportPageService(self.sessionmaker, self.clock, workers=self.workers)
        self.report_pages.reports = self.reports  # the page submits what /report enters
        self.venue.report_pages = self.report_pages  # the venue's web server serves the tables' report pages
