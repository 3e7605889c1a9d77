import { describe, expect, it } from 'vitest';
import { collect, PaginationCycleError, walkPages } from '../../src/core/paginate.js';

function offsetPages(total: number, pageSize: number) {
  const requested: number[] = [];
  const walk = {
    first: 0,
    fetchPage: async (offset: number) => {
      requested.push(offset);
      const data = Array.from({ length: Math.max(0, Math.min(pageSize, total - offset)) }, (_, i) => offset + i);
      return { data, has_more: offset + data.length < total };
    },
    itemsOf: (page: { data: number[] }) => page.data,
    nextCursor: (page: { has_more: boolean }, offset: number, items: readonly number[]) =>
      page.has_more ? offset + items.length : undefined,
  };
  return { walk, requested };
}

describe('walkPages', () => {
  it('yields every item across pages in order', async () => {
    const { walk, requested } = offsetPages(25, 10);
    expect(await collect(walkPages(walk))).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(requested).toEqual([0, 10, 20]);
  });

  it('stops at maxItems without fetching further pages', async () => {
    const { walk, requested } = offsetPages(100, 10);
    expect(await collect(walkPages(walk, { maxItems: 15 }))).toHaveLength(15);
    expect(requested).toEqual([0, 10]);
  });

  it('stops on an empty page even if the service claims more', async () => {
    let calls = 0;
    const items = await collect(
      walkPages({
        first: 0,
        fetchPage: async () => ({ data: calls++ === 0 ? [1] : [], has_more: true }),
        itemsOf: (p: { data: number[] }) => p.data,
        nextCursor: (_p, c: number) => c + 1,
      }),
    );
    expect(items).toEqual([1]);
    expect(calls).toBe(2);
  });

  it('refuses a negative maxItems', async () => {
    const { walk } = offsetPages(1, 1);
    await expect(collect(walkPages(walk, { maxItems: -1 }))).rejects.toThrow(RangeError);
  });

  it('stops when aborted', async () => {
    const { walk } = offsetPages(100, 10);
    const controller = new AbortController();
    const seen: number[] = [];
    await expect(async () => {
      for await (const item of walkPages(walk, { signal: controller.signal })) {
        seen.push(item);
        if (item === 12) controller.abort(new Error('stop'));
      }
    }).rejects.toThrow('stop');
    expect(seen.at(-1)).toBe(19);
  });
});

describe('a service that repeats its cursor', () => {
  it('stops with PaginationCycleError instead of looping', async () => {
    let calls = 0;
    type Page = { items: number[]; next: string };
    const walk = walkPages<Page, number, string | null>({
      first: null,
      fetchPage: async () => {
        calls++;
        return { items: [calls], next: 'same-token' };
      },
      itemsOf: (p) => p.items,
      nextCursor: (p) => p.next,
    });
    const error = await collect(walk).catch((e) => e);
    expect(error).toBeInstanceOf(PaginationCycleError);
    expect(error.cursor).toBe('same-token');
    expect(calls).toBe(2);
  });
});
