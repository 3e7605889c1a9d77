export declare const NOTE_KEY: 'x-decision';
export declare const AUTHORING_NOTE: RegExp;
export declare const MAINTAINER_WORDING: RegExp;
export declare function withoutMaintainerNotes(yamlText: string): string;
