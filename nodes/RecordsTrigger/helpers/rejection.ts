/** Why a request cannot be accepted; `status` is the HTTP status to answer with. */
export interface Rejection {
	status: number;
	code: string;
	message: string;
}

/** A step's result, or why the request is refused: expected outcomes of bad input, not exceptions. */
export type Checked<T> = { value: T } | { rejection: Rejection };
