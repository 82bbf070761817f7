// Our lock replaces msgpackr's optional native extractor with an empty
// package; under Jest, Colyseus's msgpackr then loads it and calls a missing
// function. Import this module first: msgpackr uses its JavaScript decoder.
process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED = 'true';
export {};
