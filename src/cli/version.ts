/** The CLI's version: the package's (`package.json`), in the MCP client's info and SARIF's `tool.driver`. */
import { version } from '../../package.json';

export const CLI_VERSION: string = version;
