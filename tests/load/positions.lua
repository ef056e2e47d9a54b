-- wrk script: each request asks about a different position (by default a
-- White Elephant and a Black Rat and Tiger; JUNGLETB_LOAD_PIECES=ELtr for
-- others; on squares drawn at random), so that
-- with the cache off every request is probed. Only legal placements: no
-- piece on a den, only the Rat in the water.
math.randomseed(7)
local function water(sq)
  local f, r = (sq - 1) % 7 + 1, math.floor((sq - 1) / 7) + 1
  return r >= 4 and r <= 6 and (f == 2 or f == 3 or f == 5 or f == 6)
end
local function den(sq) return sq == 4 or sq == 60 end
request = function()
  local board = {}
  for i = 1, 63 do board[i] = false end
  local pieces = {}
  for c in (os.getenv("JUNGLETB_LOAD_PIECES") or "Ert"):gmatch(".") do pieces[#pieces + 1] = c end
  for _, p in ipairs(pieces) do
    local sq
    repeat sq = math.random(1, 63) until not board[sq] and not den(sq) and (p:upper() == "R" or not water(sq))
    board[sq] = p
  end
  local ranks = {}
  for r = 9, 1, -1 do
    local s, empty = "", 0
    for f = 1, 7 do
      local p = board[(r - 1) * 7 + f]
      if p then
        if empty > 0 then s = s .. empty end
        empty = 0
        s = s .. p
      else
        empty = empty + 1
      end
    end
    if empty > 0 then s = s .. empty end
    ranks[#ranks + 1] = s
  end
  return wrk.format("GET", "/api/standard?position=" .. table.concat(ranks, "/") .. "_w")
end
