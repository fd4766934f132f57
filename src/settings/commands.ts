/**
 * Every command the manifest contributes, by id: the one list a command's id is typed against
 * (src/features/shared/commands.ts registers each once). package.json's `contributes.commands` holds
 * the same ids, both ways (a unit test). Pure.
 */
export const COMMAND_IDS = [
  'shunong.setApiKey',
  'shunong.clearApiKey',
  'shunong.showConnectionStatus',
  'shunong.insertWeatherBrief',
  'shunong.insertDateAndSolarTerm',
  'shunong.newBulletin',
  'shunong.recognizeImage',
  'shunong.insertCitedSnippet',
  'shunong.insertCitation',
  'shunong.renumberCitations',
  'shunong.checkCitations',
  'shunong.verifyCitations',
  'shunong.showPesticideRules',
  'shunong.verifyWorkspaceCitations',
  'shunong.fetchPassage',
  'shunong.acceptChangedPassage',
  'shunong.openPassage',
  'shunong.searchKnowledge',
  'shunong.searchSelection',
  'shunong.searchAgain',
  'shunong.dose.findSource',
  'shunong.browser.insertCitedSnippet',
  'shunong.browser.insertCitation',
  'shunong.browser.copyCitation',
  'shunong.browser.copyPassage',
  'shunong.browser.openPassage',
  'shunong.browser.pin',
  'shunong.browser.unpin',
  'shunong.browser.searchAgain',
  'shunong.browser.removeSearch',
  'shunong.browser.clearHistory',
  'shunong.browser.clearPins',
  'shunong.browser.reveal',
  'shunong.citations.reveal',
  'shunong.draftWithKnowledge',
  'shunong.exportBulletin',
  'shunong.copyForWeChat',
  'shunong.chat.insertAnswer',
] as const;

/** A command the manifest contributes. */
export type CommandId = (typeof COMMAND_IDS)[number];
