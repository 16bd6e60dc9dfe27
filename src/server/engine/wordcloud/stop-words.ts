import { createRequire } from 'node:module';

// Words a cloud leaves out. The base is the Chinese list of stopwords-iso, the maintained
// multilingual collection (about 800 pronouns, conjunctions, prepositions, particles and adverbs);
// the project's own list below adds the everyday words of prose it lacks (是否, 一款,
// 问题 …), and the rules further down catch reduplicated function words (往往, 常常, 是不是, 有没有,
// 越来越, 许许多多), which no list can enumerate. Single characters are dropped anyway (words.ts),
// so the lists hold words of two characters or more.
const CHINESE = `
是否 能否 与否 在于 一款 一套 一门 一份 我们 你们 他们 她们 它们 咱们 大家 自己 别人 人家 人们 本人 各位 诸位 这个 那个 这些 那些 这里 那里 这儿 那儿 这样 那样
这么 那么 这种 那种 这次 那次 这时 那时 此时 此外 其他 其它 其中 其余 其实 某些 某个 任何 一切 所有 每个 各个 各种 一些
一种 一个 一样 一般 一直 一定 一起 一下 一点 一边 一方面 另外 另一方面 以及 并且 而且 或者 还是 不过 但是 可是 然而 因此
所以 因为 由于 于是 然后 接着 如果 假如 要是 即使 虽然 尽管 不管 无论 只要 只有 除了 除非 为了 关于 对于 至于 根据 按照
通过 经过 随着 作为 就是 就像 好像 似乎 仿佛 比如 例如 譬如 也就是 也是 还有 还要 还会 还能 已经 曾经 正在 将要 将会 可能
可以 能够 应该 应当 需要 必须 不能 不会 不要 不用 不是 没有 没什么 什么 怎么 怎样 怎么样 如何 为什么 为何 多少 几个 哪里
哪些 哪个 谁的 之后 之前 之间 之中 之一 以后 以前 以来 以上 以下 以外 以内 后来 起来 出来 下来 上来 过来 过去 进来 进去
回来 目前 现在 当时 当前 今天 今年 时候 时间 时期 最后 最近 最终 终于 首先 其次 然而 非常 十分 特别 比较 相当 更加 越来
越是 最为 尤其 极其 格外 太多 很多 许多 不少 有些 有点 一些 大量 各自 互相 相互 彼此 分别 同时 同样 总是 总之 总的来说
一般来说 换句话说 也许 大概 或许 的确 确实 当然 果然 居然 竟然 难道 究竟 到底 恐怕 而已 罢了 的话 来说 来讲 而言 等等
之类 方面 问题 情况 东西 事情 地方 样子 看到 看见 知道 觉得 认为 以为 表示 说明 指出 提出 进行 开始 成为 具有 使得 使用
得到 出现 发生 做出 做到 给予 加以 予以 有关 相关 所谓 所在 所以说 并不 并非 并没有 不但 不仅 而是 于是乎 从而 进而 甚至
甚至于 即便 哪怕 既然 何况 况且 否则 要不 要么 不然 只是 只不过 就算 就是说 再说 此后 此前 从此 从来 向来 一向 历来 本来
原来 后面 前面 上面 下面 里面 外面 中间 旁边 这边 那边 一面 一来 二来 的时候 一次 两个 三个 几乎 差不多 大约 左右 上下
`;

const ENGLISH = `
a an the and or but if then else of to in on at by for with from into onto over under about as is are was were be been
being am do does did doing have has had having this that these those it its it's i me my we our you your he him his she
her they them their what which who whom whose when where why how all any both each few more most other some such no nor
not only own same so than too very can will just should would could may might must shall also there here out up down off
again further once s t don't isn't aren't wasn't weren't won't can't let's via per etc
`;

const require = createRequire(import.meta.url);
const { zh: MAINTAINED_CHINESE } = require('stopwords-iso/stopwords-iso.json') as { zh: string[] };

/** Chinese words the cloud keeps although the maintained list drops them: a font site writes about them. */
const KEPT = new Set(['对比', '替代', '开始', '结果']);

/** The stop words, lower-cased. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  [...MAINTAINED_CHINESE.filter((word) => !KEPT.has(word)), ...`${CHINESE} ${ENGLISH}`.split(/\s+/)].filter(
    (word) => word.length > 0,
  ),
);

/** Single characters that are function words on their own (往, 是, 有, 看 …), from the same lists. */
const FUNCTION_CHARACTERS: ReadonlySet<string> = new Set(
  MAINTAINED_CHINESE.filter((word) => [...word].length === 1 && /\p{Script=Han}/u.test(word)),
);

/**
 * jieba's parts of speech that are function words whatever the word: conjunctions (c), prepositions
 * (p), particles (u…), pronouns (r…), interjections (e) and modal particles (y).
 */
const FUNCTION_TAGS = /^(?:c|p|u[a-z]?|r[a-z]?|e|y)$/;

/**
 * Whether a token is a function word: listed, of a function part of speech, or the reduplication of
 * one. A doubled character (往往, 常常, 看看) is one unless jieba calls it a noun (妈妈, 星星); an
 * A不A or A没A question (是不是, 有没有, 喜不喜欢) always is, as are 越…越 and an AABB whose AB is
 * listed (许许多多).
 */
export function isStopWord(token: string, tag = ''): boolean {
  const word = token.toLowerCase();
  if (STOP_WORDS.has(word) || FUNCTION_TAGS.test(tag)) return true;
  const chars = [...word];
  if (!chars.every((ch) => /\p{Script=Han}/u.test(ch))) return false;
  const [a, b, c, d] = chars;
  if (chars.length === 2 && a === b) return FUNCTION_CHARACTERS.has(a as string) || !tag.startsWith('n');
  if (/^(.{1,2})[不没]\1/u.test(word)) return true;
  if (chars.length === 3 && a === '越' && c === '越') return true;
  if (chars.length === 4 && a === b && c === d) return STOP_WORDS.has(`${a}${c}`);
  return false;
}
