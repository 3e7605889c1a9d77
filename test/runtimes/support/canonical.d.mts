/** JSON text with object keys sorted and bigints written as `<digits>n`. */
export declare function canonical(value: unknown): string;
