import { describe, expect, it } from 'vitest';
import { detokenize, normalizer, stripEmailHeaders, stripMarkers, stripPosTags, stripUnk, truecase } from '../../src/eval/normalize.js';

describe('detokenize', () => {
  it('attaches punctuation to the word before it', () => {
    expect(detokenize('GHS-R is found in various tissues , but its function is unknown .')).toBe('GHS-R is found in various tissues, but its function is unknown.');
  });
  it('closes spaced brackets', () => {
    expect(detokenize('growth hormone secretagogue receptor ( GHS-R ) .')).toBe('growth hormone secretagogue receptor (GHS-R).');
  });
  it('turns wikitext @-@, @,@ and @.@ back into the character', () => {
    expect(detokenize('a well @-@ known 1 @,@ 000 and 0 @.@ 7 kg')).toBe('a well-known 1,000 and 0.7 kg');
  });
  it('rejoins clitics and PTB quotes', () => {
    expect(detokenize("`` I do n't know '' , he said")).toBe('"I don\'t know", he said');
  });
  it('rejoins a spaced hyphen between word characters', () => {
    expect(detokenize('tumour - suppressor ( GSK - 3beta )')).toBe('tumour-suppressor (GSK-3beta)');
  });
  it('maps -LSB- / -RSB- to brackets', () => {
    expect(detokenize('see -LSB- 12 -RSB- .')).toBe('see [12].');
  });
});

describe('other steps', () => {
  it('strip-markers removes ChemProt entity markers', () => {
    expect(stripMarkers('blocked 43% of the << Ang II >>-induced rise; [[ valsartan ]], 51%')).toBe('blocked 43% of the Ang II-induced rise; valsartan, 51%');
  });
  it('truecase capitalises sentence starts and the pronoun i', () => {
    expect(truecase("idiotic and ugly . i think it's bad")).toBe("Idiotic and ugly . I think it's bad");
  });
  it('strip-pos-tags keeps the word when the word itself has a slash', () => {
    expect(stripPosTags('The/at 1/2/cd mile/nn ./.')).toBe('The 1/2 mile .');
  });
  it('strip-email-headers drops the header block and quoted lines', () => {
    const post = 'From: a@b.c\nSubject: Re: x\n\nIn article <1@x>, a wrote:\n> quoted\nMy answer.';
    expect(stripEmailHeaders(post)).toBe('My answer.');
  });
  it('strip-unk removes the placeholder', () => {
    expect(stripUnk('a species of <unk> lobster')).toBe('a species of lobster');
  });
  it('normalizer applies structure steps before detokenize whatever the listed order', () => {
    const f = normalizer(['detokenize', 'strip-pos-tags']);
    expect(f('The/at jury/nn ,/, said/vbd ./.')).toBe('The jury, said.');
  });
});
