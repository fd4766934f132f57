// markdown-it 12 (the npm alias `markdown-it-12`, as VS Code 1.100 bundles it) has no types of its
// own; its API is the one the tests use of markdown-it 15.
declare module 'markdown-it-12' {
  import markdownIt from 'markdown-it';
  export default markdownIt;
}
