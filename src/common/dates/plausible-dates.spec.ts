import { demandDateProblems, futureDueDateProblems, pastDateProblems } from './plausible-dates';

describe('plausible dates', () => {
  const today = '2026-11-28';

  describe('pastDateProblems', () => {
    it('takes today and any day back to 2000-01-01', () => {
      expect(pastDateProblems('receivedDate', today, today)).toEqual([]);
      expect(pastDateProblems('receivedDate', '2000-01-01', today)).toEqual([]);
    });
    it('refuses tomorrow and 2099, naming the field', () => {
      for (const date of ['2026-11-29', '2099-04-02']) {
        expect(pastDateProblems('receivedDate', date, today)).toEqual([
          { field: 'receivedDate', message: 'must not be after today (2026-11-28)' },
        ]);
      }
    });
    it('refuses 1999-12-31', () => {
      expect(pastDateProblems('bookingDate', '1999-12-31', today)).toEqual([
        { field: 'bookingDate', message: 'must not be before 2000-01-01' },
      ]);
    });
  });

  describe('demandDateProblems', () => {
    it('takes a demand due on the day it is raised, raised on the booking day', () => {
      expect(
        demandDateProblems({
          dueDate: '2026-06-01',
          demandDate: '2026-06-01',
          bookingDate: '2026-06-01',
        }),
      ).toEqual([]);
    });
    it('refuses a due date before the demand date', () => {
      expect(demandDateProblems({ dueDate: '2026-01-01', demandDate: '2026-11-20' })).toEqual([
        { field: 'dueDate', message: 'must not be before demandDate (2026-11-20)' },
      ]);
    });
    it('refuses a demand dated before its booking', () => {
      expect(
        demandDateProblems({
          dueDate: '2026-12-01',
          demandDate: '2026-05-31',
          bookingDate: '2026-06-01',
        }),
      ).toEqual([
        {
          field: 'demandDate',
          message: "must not be before the booking's bookingDate (2026-06-01)",
        },
      ]);
    });
  });

  describe('futureDueDateProblems', () => {
    it('takes today and later, refuses yesterday', () => {
      expect(futureDueDateProblems(today, today)).toEqual([]);
      expect(futureDueDateProblems('2026-12-15', today)).toEqual([]);
      expect(futureDueDateProblems('2026-11-27', today)).toEqual([
        { field: 'dueDate', message: 'must not be before today (2026-11-28)' },
      ]);
    });
  });
});
