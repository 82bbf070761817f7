// express4 is an npm alias of express@4; its API matches the types of express 5
// for everything these tests use.
declare module 'express4' {
  import express from 'express';
  export default express;
}
