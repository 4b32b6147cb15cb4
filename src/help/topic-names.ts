// The help topics' names and summaries, for the root help (which must not load the topics' texts).
/** `mailclean help TOPIC`: topics beside the commands' help (their texts are in src/help/topics.ts). */
export const HELP_TOPICS = {
  environment: 'the environment variables mailclean reads',
  'exit-codes': 'what each exit code means',
  formatting: 'output: stdout and stderr, --json, formats, colour',
  statuses: 'the verdict of each row: statuses, reasons, columns',
} as const;
export type HelpTopic = keyof typeof HELP_TOPICS;
