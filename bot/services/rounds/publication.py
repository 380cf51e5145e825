"""Publication: the database first, then the Discord side effects recorded (BOT-TAB-1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.db.models import RoundStatus
from bot.errors import Conflict, NotFound
from bot.services._base import BaseService
from bot.services.access import Actor, StaffRole
from bot.services.rounds.reading import pick_round, round_view
from bot.services.rounds.views import PublishJob


class RoundPublication(BaseService):
    """A round's publication: the round published in the database, then what the Discord side achieved."""

    async def publish(self, actor: Actor, *, tournament: str, number: int | None = None) -> PublishJob:
        """Mark a drawn round published (the database first); the cog then announces it in Discord.

        On a round already published this changes nothing and returns the job again, so the Discord side
        effects that failed (announcement, table threads) can be retried.
        """
        async with self.run(actor, role=StaffRole.ORGANIZER, tournament=tournament) as uc:
            r = await pick_round(uc, number, (RoundStatus.DRAWN, RoundStatus.PUBLISHED))
            if r.status == RoundStatus.PLANNED:
                raise Conflict("error.round_not_drawn", number=r.number)
            if r.status == RoundStatus.CLOSED:
                raise Conflict("error.round_closed", number=r.number)
            first = r.status == RoundStatus.DRAWN
            if first:
                r.status = RoundStatus.PUBLISHED
                r.published_at = uc.clock()
                await uc.flush()
                await uc.audit("round.publish", "round", r.id, tournament=uc.tournament.name, number=r.number,
                               seed=r.draw_seed)  # fmt: skip
            channel = uc.config.announcement_channel_id if uc.config else None
            return PublishJob(await round_view(uc, r), channel, first)

    async def remember_publication(
        self,
        actor: Actor,
        *,
        round_id: int,
        announcement_message_id: int | None = None,
        thread_ids: Mapping[int, int] | None = None,
        thread_intents: Sequence[int] = (),
        pinged: Sequence[int] = (),
    ) -> None:
        """Store one Discord side effect of a publication as soon as it happened, or its intent just before it is
        asked of Discord (no audit: ``record_publication`` audits the whole at the end): the announcement, that a
        table's thread is being made (``thread_intents``: now), the thread, the ping of a table's players in it — so
        a publish run again after a crash does what is missing and nothing twice."""
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:
            r = await uc.rounds.get_round_by_id(round_id=round_id)
            if r is None:
                return
            if announcement_message_id is not None and r.announcement_message_id is None:
                r.announcement_message_id = announcement_message_id
            if thread_ids or thread_intents or pinged:
                for gt in await uc.rounds.list_tables(round_id=round_id):
                    if thread_ids and gt.number in thread_ids and gt.thread_id is None:
                        gt.thread_id = thread_ids[gt.number]
                    if gt.number in thread_intents and gt.thread_id is None:
                        gt.thread_requested_at = uc.clock()
                    if gt.number in pinged:
                        gt.thread_pinged = True

    async def record_publication(
        self,
        actor: Actor,
        *,
        round_id: int,
        announcement_message_id: int | None,
        thread_ids: Mapping[int, int],
        failures: Sequence[str] = (),
    ) -> None:
        """Store what the Discord side of a publication achieved: the announcement and each table's thread."""
        async with self.run(actor, role=StaffRole.ORGANIZER) as uc:
            r = await uc.rounds.get_round_by_id(round_id=round_id)
            if r is None:
                raise NotFound("error.round_none", tournament="?")
            if announcement_message_id is not None:
                r.announcement_message_id = announcement_message_id
            for gt in await uc.rounds.list_tables(round_id=round_id):
                if gt.number in thread_ids:
                    gt.thread_id = thread_ids[gt.number]
            await uc.flush()
            await uc.audit("round.publish.discord", "round", r.id, announcement_message_id=announcement_message_id,
                           threads={str(k): v for k, v in thread_ids.items()}, failures=list(failures))  # fmt: skip
