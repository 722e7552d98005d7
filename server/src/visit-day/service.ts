// The visit's day for staff (issue 40): the day's visits with each child's documents, Arrived / No-show, and the undo.
import { and, eq, gt, gte, inArray, lt } from 'drizzle-orm';
import {
  ATTENDANCE_UNDO_MINUTES,
  dateInMY,
  midnightInMY,
  VisitDayErrorCode,
  VisitDayMessage,
  type AttendanceAnswer,
  type AttendanceRecord,
  type ErrorCode,
  type VisitAttendance,
  type VisitAttendanceState,
  type VisitDay,
} from 'shared-api/contract';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../base/db/connection';
import { AppError } from '../base/errors';
import { documentChecklistFor } from '../documents';
import { visitsOn, type Visit } from '../manage';
import { payments } from '../payments';
import { visitAttendance, type VisitAttendanceRow } from './tables';

const DAY_MS = 86_400_000;
const UNDO_MS = ATTENDANCE_UNDO_MINUTES * 60_000;
const fail = (status: number, code: VisitDayErrorCode, message: string, rule: string) =>
  new AppError(status, code as unknown as ErrorCode, message).withReason({ rule });

/** Who marks or undoes, as the audit trail records them. */
export type Marker = { email: string; userId: number; ip: string };

const attendanceOf = (row: VisitAttendanceRow): VisitAttendance => ({
  state: row.state,
  at: row.markedAt.toISOString(),
  by: row.markedBy,
  undoableUntil: new Date(row.markedAt.getTime() + UNDO_MS).toISOString(),
});

/** The staff's day: reads the visits (manage/visits.ts) and the documents' checklist; owns the attendance marks. */
export class VisitDayService {
  /** The clock (tests fix it; production reads the time). */
  now: () => Date = () => new Date();

  constructor(private readonly db: Db) {}

  /** The visits starting on `day` (GMT+8), in start order, with each child's checklist and the visit's attendance. */
  async day(day: string): Promise<VisitDay> {
    const now = this.now();
    const visits = await visitsOn(this.db, day);
    const references = [...new Set(visits.map((v) => v.reference))];
    const from = new Date(midnightInMY(day));
    const [checklists, marks] = await Promise.all([
      documentChecklistFor(this.db, [...new Set(visits.filter((v) => v.paid).map((v) => v.reference))]),
      references.length === 0
        ? Promise.resolve([])
        : this.db
            .select()
            .from(visitAttendance)
            .where(and(inArray(visitAttendance.reference, references), gte(visitAttendance.startAt, from), lt(visitAttendance.startAt, new Date(from.getTime() + DAY_MS)))),
    ]);
    const markOf = (v: Visit) => marks.find((m) => m.reference === v.reference && m.startAt.toISOString() === v.start);
    return {
      day,
      now: now.toISOString(),
      visits: visits.map((v) => {
        const checklist = checklists.get(v.reference)?.children ?? [];
        const mark = markOf(v);
        return {
          ...v,
          children: v.children.map((c) => {
            const own = v.paid ? checklist.find((k) => k.position === c.position) : undefined;
            return { ...c, checklist: own ? { required: own.required, inCount: own.inCount, missing: own.missing } : null };
          }),
          attendance: mark ? attendanceOf(mark) : null,
        };
      }),
    };
  }

  /**
   * Marks the visit of `reference` starting at `start`: Arrived from the visit's day (GMT+8) on, No-show from its start
   * on. One row per visit (its key): a second mark from any process finds the first; the same state answers it again,
   * another is 409. The audit record commits with the mark.
   */
  async mark(reference: string, startIso: string, state: VisitAttendanceState, by: Marker): Promise<AttendanceAnswer> {
    const now = this.now();
    const visit = await this.visitOr404(reference, startIso);
    const start = new Date(visit.start);
    if (dateInMY(now) < dateInMY(start)) throw fail(409, VisitDayErrorCode.ATTENDANCE_NOT_YET, VisitDayMessage.notItsDay, 'notItsDay');
    if (state === 'noShow' && now.getTime() < start.getTime())
      throw fail(409, VisitDayErrorCode.ATTENDANCE_NOT_YET, VisitDayMessage.noShowTooEarly, 'noShowBeforeStart');
    const row = await this.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(visitAttendance)
        .values({ reference, startAt: start, state, markedAt: now, markedBy: by.email, markedByUserId: by.userId })
        .onConflictDoNothing()
        .returning();
      if (!inserted) {
        // Marked before (or by another process just now): the same state is answered again, another is refused.
        const existing = await this.markOf(tx, reference, start);
        if (existing?.state !== state) throw fail(409, VisitDayErrorCode.ATTENDANCE_ALREADY_MARKED, VisitDayMessage.alreadyMarked, 'alreadyMarked');
        return existing;
      }
      await recordAudit(tx, {
        actor: by.email,
        actorUserId: by.userId,
        ip: by.ip,
        action: state === 'arrived' ? 'visit_arrived' : 'visit_no_show',
        target: reference,
        detail: { start: visit.start, children: visit.children.map((c) => c.name).filter((n) => n !== '') },
      });
      return inserted;
    });
    return { reference, start: visit.start, attendance: attendanceOf(row) };
  }

  /** Undoes the visit's mark within ATTENDANCE_UNDO_MINUTES of it (any staff member): one conditional DELETE, audited. */
  async undo(reference: string, startIso: string, by: Marker): Promise<AttendanceAnswer> {
    const now = this.now();
    const start = new Date(startIso);
    await this.db.transaction(async (tx) => {
      const [removed] = await tx
        .delete(visitAttendance)
        .where(and(eq(visitAttendance.reference, reference), eq(visitAttendance.startAt, start), gt(visitAttendance.markedAt, new Date(now.getTime() - UNDO_MS))))
        .returning();
      if (!removed) {
        if (await this.markOf(tx, reference, start)) throw fail(409, VisitDayErrorCode.ATTENDANCE_UNDO_TOO_LATE, VisitDayMessage.undoTooLate, 'undoTooLate');
        throw fail(404, VisitDayErrorCode.ATTENDANCE_NOT_MARKED, VisitDayMessage.notMarked, 'notMarked');
      }
      await recordAudit(tx, {
        actor: by.email,
        actorUserId: by.userId,
        ip: by.ip,
        action: 'visit_attendance_undone',
        target: reference,
        detail: { start: start.toISOString(), state: removed.state, markedBy: removed.markedBy },
      });
    });
    return { reference, start: start.toISOString(), attendance: null };
  }

  /** The marks of visits starting between `from` and `to` (GMT+8 days, inclusive), for the Booked list and the CSV. */
  async range(from: string, to: string): Promise<AttendanceRecord[]> {
    const rows = await this.db
      .select()
      .from(visitAttendance)
      .where(and(gte(visitAttendance.startAt, new Date(midnightInMY(from))), lt(visitAttendance.startAt, new Date(midnightInMY(to) + DAY_MS))))
      .orderBy(visitAttendance.startAt, visitAttendance.reference);
    return rows.map((row) => ({ reference: row.reference, start: row.startAt.toISOString(), ...attendanceOf(row) }));
  }

  private async markOf(db: DbOrTx, reference: string, start: Date) {
    const [row] = await db.select().from(visitAttendance).where(and(eq(visitAttendance.reference, reference), eq(visitAttendance.startAt, start)));
    return row;
  }

  /** The booked visit, or 409 for a cancelled booking, 404 for no booking of that reference at that time. */
  private async visitOr404(reference: string, startIso: string): Promise<Visit> {
    const start = Date.parse(startIso);
    const visit = (await visitsOn(this.db, dateInMY(start))).find((v) => v.reference === reference && Date.parse(v.start) === start);
    if (visit) return visit;
    const [cancelled] = await this.db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.reference, reference), eq(payments.bookingStatus, 'cancelled')));
    if (cancelled) throw fail(409, VisitDayErrorCode.VISIT_CANCELLED, VisitDayMessage.cancelled, 'cancelled');
    throw fail(404, VisitDayErrorCode.VISIT_NOT_FOUND, VisitDayMessage.notFound, 'notFound');
  }
}
