declare module '*.svg' {
  const url: string;
  export default url;
}
declare module '*.png' {
  const url: string;
  export default url;
}
/** A stylesheet's text (webpack.common.ts: asset/source). */
declare module '*.css' {
  const text: string;
  export default text;
}
