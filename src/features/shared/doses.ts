/**
 * A dose of a bulletin that differs from its cited passage, or whose dilution does not add up, as
 * the dose feature tells it to the export (which asks before such a bulletin goes out).
 */
import type * as vscode from 'vscode';
export interface WrongDose {
  /** 0-based. */
  line: number;
  /** What the Problems panel says of it, in the UI's language. */
  message: string;
}

/** Where the export finds a bulletin's wrong doses: the dose feature's Problems, checked now. */
export interface WrongDoses {
  wrongDoses(doc: vscode.TextDocument): WrongDose[];
}
