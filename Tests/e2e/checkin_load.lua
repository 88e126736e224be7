-- wrk script for the check-in load tests: every request is a new device (wrk keeps no cookies),
-- so every 303 is a new check-in. Each thread writes one line per response to OUTDIR/responses-N:
-- the status, and for a 303 the receipt it points to. Usage: wrk ... -s checkin_load.lua URL -- OUTDIR
local counter = 0
function setup(thread)
   counter = counter + 1
   thread:set("number", counter)
end

function init(args)
   out = assert(io.open(args[1] .. "/responses-" .. number, "w"))
   out:setvbuf("line")
end

function response(status, headers, body)
   if status == 303 then
      out:write("303 ", headers["Location"] or headers["location"] or "", "\n")
   else
      out:write(status, "\n")
   end
end
