// Verbatim release text (Complexity_Ceiling_Benchmark @57a1a36, reproduced in docs/spec/ccb.md Appendix A).
// Whitespace is significant: runs of spaces align the colons exactly as the release sends them.

export const D1_OPERATIONS = `GRID CONVENTION:
- Rows and columns use 1-based indexing (1 to 3).
- Row 1 = top row, Row 3 = bottom row. Col 1 = leftmost column, Col 3 = rightmost column.
- Coordinate (row, col): (1,1) = top-left, (1,3) = top-right, (3,1) = bottom-left, (3,3) = bottom-right.

OPERATIONS:
- ROTATE_90_CW      : Rotate the entire 3x3 grid 90 degrees clockwise around its center.
- SHIFT_ROW_2_LEFT  : Shift the middle row (Row 2) left by 1, wrapping the leftmost element to the right end.
- SWAP_CORNERS      : Swap coordinate (1,1) with (3,3), AND swap coordinate (1,3) with (3,1). Both swaps happen simultaneously using the grid state before either swap.
- REVERSE_GRID      : Flatten the grid row-wise into a 1D list of 9 elements (reading Row 1 left-to-right, then Row 2, then Row 3), reverse that list, then reshape back into a 3x3 grid.
- FLIP_HORIZONTAL   : Reverse the elements in each row individually (left-to-right reflection). Rows are not reordered.
- TRANSPOSE_GRID    : Reflect the grid across its main diagonal (top-left to bottom-right), so that element at (i,j) moves to position (j,i).
- SHIFT_COL_1_UP    : Shift the leftmost column (Col 1) up by 1, wrapping the top element to the bottom.

EXECUTION RULES:
- Operations are applied sequentially. Each operation uses the grid produced by the previous step, not the original grid.
- Within a single operation, all output values are computed from the grid state that existed before the operation began. No cell updated during the operation is used as input for another cell in the same operation.

WORKED EXAMPLES (all use starting grid [[1,2,3],[4,5,6],[7,8,9]]):

ROTATE_90_CW:
  Input  : [[1,2,3],[4,5,6],[7,8,9]]
  Output : [[7,4,1],[8,5,2],[9,6,3]]
  (Each column becomes a row, reading bottom-to-top.)

SHIFT_ROW_2_LEFT:
  Input  : [[1,2,3],[4,5,6],[7,8,9]]
  Row 2 before : [4,5,6]
  Shift left 1 : [5,6,4]  (4 wraps to right end)
  Output : [[1,2,3],[5,6,4],[7,8,9]]

SWAP_CORNERS:
  Input  : [[1,2,3],[4,5,6],[7,8,9]]
  Swap (1,1)=1 with (3,3)=9, AND (1,3)=3 with (3,1)=7 simultaneously.
  Output : [[9,2,7],[4,5,6],[3,8,1]]

REVERSE_GRID:
  Input        : [[1,2,3],[4,5,6],[7,8,9]]
  Flatten      : [1,2,3,4,5,6,7,8,9]
  Reverse list : [9,8,7,6,5,4,3,2,1]
  Reshape 3x3  : [[9,8,7],[6,5,4],[3,2,1]]

FLIP_HORIZONTAL:
  Input  : [[1,2,3],[4,5,6],[7,8,9]]
  Output : [[3,2,1],[6,5,4],[9,8,7]]
  (Each row is independently reversed. Row order is unchanged.)

TRANSPOSE_GRID:
  Input  : [[1,2,3],[4,5,6],[7,8,9]]
  Output : [[1,4,7],[2,5,8],[3,6,9]]
  (Element at (i,j) moves to (j,i). Example: (1,2)=2 moves to (2,1).)

SHIFT_COL_1_UP:
  Input         : [[1,2,3],[4,5,6],[7,8,9]]
  Col 1 before  : [1,4,7]  (top to bottom)
  Shift up by 1 : [4,7,1]  (1 wraps to bottom)
  Output        : [[4,2,3],[7,5,6],[1,8,9]]`;

export const D1_OUTPUT_FORMAT = `Output ONLY the following format. Do NOT use markdown code blocks. Do NOT add commentary.
1. TRACE: ["Step 1: [[...]]", "Step 2: [[...]]", ...]
2. ANSWER: [[...]]

CRITICAL RULES:
- Step 1 in TRACE = grid state AFTER applying the first operation.
- Do NOT include the initial grid in TRACE.
- Output the FULL 3x3 grid for every single step. No ellipses.`;
