import { describe, expect, it } from 'vitest';
import { checkOptions, formatOptionHelp, optionReader, parseOptionValue, suggestNames, type OptionDecl, type OptionOwner } from '../../src/core/option-decl.js';

const DECLS: readonly OptionDecl[] = [
  { name: 'rounds', type: 'int', default: 4, min: 0, help: 'self-training rounds' },
  { name: 'share', type: 'number', default: 0.2, min: 0, max: 1, minOpen: true, maxOpen: true, help: 'a share' },
  { name: 'mode', type: 'choice', default: 'mean', choices: ['mean', 'consensus'], help: 'how' },
  { name: 'flag', type: 'boolean', default: false, help: 'on or off' },
  { name: 'list', type: 'string', defaultText: 'from the data', help: 'free text' },
  { name: 'knob', type: 'number', default: 1, help: 'a research knob', experimental: true },
];
const OWNER: OptionOwner = { label: 'method demo', options: DECLS };

describe('declared options', () => {
  it('parse CLI strings and API values by type and range; the error names option, owner, value and range', () => {
    const d = (n: string) => DECLS.find((x) => x.name === n) as OptionDecl;
    expect(parseOptionValue(OWNER, d('rounds'), '0')).toBe(0);
    expect(parseOptionValue(OWNER, d('share'), 0.5)).toBe(0.5);
    expect(parseOptionValue(OWNER, d('flag'), 'on')).toBe(true);
    expect(parseOptionValue(OWNER, d('list'), 3)).toBe('3');
    expect(() => parseOptionValue(OWNER, d('rounds'), '1.5')).toThrow('invalid rounds "1.5" for method demo: should be an integer >= 0');
    expect(() => parseOptionValue(OWNER, d('share'), 1)).toThrow('invalid share 1 for method demo: should be a number in (0, 1)');
    expect(() => parseOptionValue(OWNER, d('share'), '')).toThrow(/invalid share ""/);
    expect(() => parseOptionValue(OWNER, d('mode'), 'median')).toThrow('invalid mode "median" for method demo: should be one of: mean, consensus');
    expect(() => parseOptionValue(OWNER, d('flag'), 'maybe')).toThrow(/should be true or false/);
  });

  it('a reader gives the value or the declared default, and refuses a name its owner does not declare', () => {
    const read = optionReader(OWNER, { rounds: '2' });
    expect(read.number('rounds')).toBe(2);
    expect(read.number('share')).toBe(0.2);
    expect(read.string('mode')).toBe('mean');
    expect(read.boolean('flag')).toBe(false);
    expect(read.maybeString('list')).toBeUndefined();
    expect(() => read.string('list')).toThrow(/no declared default/);
    expect(() => read.number('undeclared')).toThrow(/does not declare/);
    expect(() => read.number('mode')).toThrow(/does not declare/);
  });

  it('an unknown key is an error with the nearest names, else the list; values are checked too', () => {
    expect(() => checkOptions([OWNER], { round: 1 })).toThrow("unknown option 'round' for method demo; did you mean 'rounds'?");
    expect(() => checkOptions([OWNER], { Mode: 'mean' })).toThrow(/did you mean 'mode'\?/);
    expect(() => checkOptions([OWNER], { zzzzzz: 1 }, 'see help')).toThrow("unknown option 'zzzzzz' for method demo; it takes: rounds, share, mode, flag, list, knob (see help)");
    expect(() => checkOptions([OWNER], { rounds: -1 })).toThrow(/invalid rounds -1/);
    expect(() => checkOptions([OWNER], { rounds: 1, mode: 'consensus' })).not.toThrow();
    expect(suggestNames('efsearch', ['efSearch', 'efConstruction', 'k'])).toEqual(['efSearch']);
  });

  it('help lists every option with its default and range, research knobs under their own heading', () => {
    const lines = formatOptionHelp(OWNER);
    expect(lines[0]).toBe('  rounds=4  (an integer >= 0)');
    expect(lines[1]).toBe('      self-training rounds');
    expect(lines).toContain('  list=from the data');
    const heading = lines.indexOf('  Experimental (research knobs the default leaves alone):');
    expect(heading).toBeGreaterThan(lines.indexOf('  list=from the data'));
    expect(lines.slice(heading)).toContain('  knob=1  (a number)');
    expect(formatOptionHelp({ label: 'detector none', options: [] })).toEqual(['  (no options)']);
  });
});
