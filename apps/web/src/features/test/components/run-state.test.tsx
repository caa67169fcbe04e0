// @vitest-environment happy-dom
import type { TestRun } from '@loggerhead/contract/schemas/testmgmt.ts';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLang, loadFeatureMessages } from '../../../i18n/setup.ts';
import { RunState, VerdictTag } from './run-state.tsx';
import { mergeRun } from './use-runs-live.ts';

beforeAll(async () => {
  // As the route guard does before a page shows.
  await loadFeatureMessages('en');
  await changeLang('en');
});
afterEach(cleanup);

const base = { progress: 0, step: 0, steps_total: 3, reason: null, dry_run: false } as const;

describe('the run state display', () => {
  it('an active run shows its state, its step and its progress', () => {
    render(<RunState run={{ ...base, state: 'collecting', progress: 40, step: 1 }} />);
    expect(screen.getByTestId('run-state').getAttribute('data-state')).toBe('collecting');
    expect(screen.getByTestId('run-state-tag').textContent).toBe('Collecting data');
    expect(screen.getByTestId('run-step').textContent).toBe('step 2/3');
    expect(screen.getByTestId('run-progress').textContent).toContain('40%');
    expect(screen.queryByTestId('run-reason')).toBeNull();
  });

  it('names each state of the way: sending, collecting, analyzing, analyzed', () => {
    const names = (['queued', 'sending', 'collecting', 'analyzing', 'analyzed'] as const).map((state) => {
      const { unmount } = render(<RunState run={{ ...base, state }} />);
      const text = screen.getByTestId('run-state-tag').textContent;
      unmount();
      return text;
    });
    expect(names).toEqual(['Queued', 'Sending command', 'Collecting data', 'Analyzing', 'Analyzed']);
  });

  it('a failed or cancelled run shows why, and no progress', () => {
    const { rerender } = render(<RunState run={{ ...base, state: 'failed', progress: 30, reason: 'the device did not answer' }} />);
    expect(screen.getByTestId('run-state-tag').textContent).toBe('Failed');
    expect(screen.getByTestId('run-reason').textContent).toBe('the device did not answer');
    expect(screen.queryByTestId('run-progress')).toBeNull();
    rerender(<RunState run={{ ...base, state: 'cancelled', reason: 'cancelled by admin' }} />);
    expect(screen.getByTestId('run-state-tag').textContent).toBe('Cancelled');
    expect(screen.getByTestId('run-reason').textContent).toBe('cancelled by admin');
  });

  it('a finished run shows no step; a dry run never shows steps', () => {
    const { rerender } = render(<RunState run={{ ...base, state: 'analyzed', progress: 100, step: 3 }} />);
    expect(screen.queryByTestId('run-step')).toBeNull();
    expect(screen.queryByTestId('run-progress')).toBeNull();
    rerender(<RunState run={{ ...base, state: 'analyzing', dry_run: true, progress: 50 }} />);
    expect(screen.queryByTestId('run-step')).toBeNull();
    expect(screen.getByTestId('run-progress').textContent).toContain('50%');
  });

  it('shows the verdict, or a dash before there is one', () => {
    const { rerender, container } = render(<VerdictTag verdict="fail" />);
    expect(screen.getByTestId('run-verdict').textContent).toBe('Fail');
    rerender(<VerdictTag verdict={null} />);
    expect(container.textContent).toBe('--');
  });
});

describe('live run updates', () => {
  const run = (id: string, state: TestRun['state']) => ({ id, state }) as TestRun;
  it('replace the listed run, and say when the list does not hold it', () => {
    const page = { list: [run('a', 'sending'), run('b', 'queued')], total: 2, current_page: 1, page_size: 20 };
    const merged = mergeRun(page as never, run('b', 'collecting'));
    expect(merged.found).toBe(true);
    expect(merged.page?.list.map((r) => r.state)).toEqual(['sending', 'collecting']);
    expect(page.list[1].state).toBe('queued');
    expect(mergeRun(page as never, run('c', 'queued')).found).toBe(false);
    expect(mergeRun(undefined, run('c', 'queued')).found).toBe(false);
  });
});
