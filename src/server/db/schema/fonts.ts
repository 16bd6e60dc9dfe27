import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** How many code points of each coverage set a font maps (see src/server/fonts/charsets.ts). */
const coverageColumns = () => ({
  coverageGb2312: integer('coverage_gb2312').notNull().default(0),
  coverageTongyong: integer('coverage_tongyong').notNull().default(0),
  coverageBig5: integer('coverage_big5').notNull().default(0),
  coverageLatin: integer('coverage_latin').notNull().default(0),
});

/**
 * A font family (SPEC fontGNo is its `gno`, a slug such as 'noto-sans-sc'). `category`, `script`
 * and `license` hold dict numbers of the font dictionary (font_dicts keys 'category', 'script',
 * 'license'); dict numbers are text because clients compare them as text.
 */
export const fontFamilies = pgTable(
  'font_families',
  {
    id: serial('id').primaryKey(),
    gno: text('gno').notNull().unique(),
    nameZh: text('name_zh').notNull(),
    /** The English family name read from the font, e.g. 'Noto Sans SC'. */
    nameEn: text('name_en').notNull(),
    category: text('category').notNull(),
    script: text('script').notNull(),
    /** SPDX identifier, e.g. 'OFL-1.1' (also the dict number of the 'license' dictionary). */
    license: text('license').notNull(),
    /** The licence text shipped with the font, kept so that every download can carry it. */
    licenseText: text('license_text').notNull(),
    commercialFree: boolean('commercial_free').notNull().default(false),
    designer: text('designer'),
    foundry: text('foundry'),
    description: text('description').notNull().default(''),
    /** Where the files came from, e.g. '@expo-google-fonts/noto-sans-sc'. */
    sourcePackage: text('source_package'),
    sourceVersion: text('source_version'),
    glyphCount: integer('glyph_count').notNull().default(0),
    ...coverageColumns(),
    downloads: integer('downloads').notNull().default(0),
    published: boolean('published').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('font_families_category_idx').on(t.category), index('font_families_script_idx').on(t.script)],
);

/** One child font of a family: a single weight/style file ('noto-sans-sc-400', italic adds 'i'). */
export const fonts = pgTable(
  'fonts',
  {
    id: serial('id').primaryKey(),
    familyId: integer('family_id')
      .notNull()
      .references(() => fontFamilies.id, { onDelete: 'cascade' }),
    gno: text('gno').notNull().unique(),
    fullName: text('full_name').notNull(),
    styleName: text('style_name').notNull(),
    postscriptName: text('postscript_name').notNull(),
    /** CSS weight, 100–900. */
    weight: integer('weight').notNull(),
    italic: boolean('italic').notNull().default(false),
    /** The storage key of the TTF, e.g. 'fonts/noto-sans-sc/NotoSansSC_400Regular.ttf'. */
    fileKey: text('file_key').notNull(),
    fileSize: integer('file_size').notNull(),
    /** Hex SHA-256 of the file, for integrity checks and cache keys of derived files. */
    sha256: text('sha256').notNull(),
    glyphCount: integer('glyph_count').notNull().default(0),
    ...coverageColumns(),
    version: text('version').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('fonts_family_id_idx').on(t.familyId)],
);
