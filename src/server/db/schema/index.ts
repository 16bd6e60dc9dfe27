// Every table of the site, one file per domain; drizzle-kit reads this file to generate migrations.
export * from './accounts.ts';
export * from './albums.ts';
export * from './content.ts';
export * from './custom-fonts.ts';
export * from './dictionaries.ts';
export * from './fonts.ts';
export * from './jobs.ts';
export * from './pixel-projects.ts';
export * from './shared-state.ts';
export * from './site.ts';
export * from './submissions.ts';
export * from './user-data.ts';
export * from './videos.ts';
