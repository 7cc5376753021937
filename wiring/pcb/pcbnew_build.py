"""Builds a .kicad_pcb with KiCad's own pcbnew module from a JSON plan.

Run by Debian's system python3 (where KiCad 9's pcbnew module loads), never imported
by the package: ``/usr/bin/python3 pcbnew_build.py PLAN.json``. The plan names the
board file, the outline, the stack-up's copper count, every footprint (library,
name, reference, value, symbol path, position, rotation, each pad's net), the
mounting holes, the tracks and vias, and the text to put on the silkscreen.
"""

import json
import sys
from typing import Any

import pcbnew  # type: ignore[import-not-found]

COPPER = {
    "F.Cu": pcbnew.F_Cu,
    "In1.Cu": pcbnew.In1_Cu,
    "In2.Cu": pcbnew.In2_Cu,
    "B.Cu": pcbnew.B_Cu,
}


def mm(v: float) -> Any:
    return pcbnew.FromMM(float(v))


def point(x: float, y: float) -> Any:
    return pcbnew.VECTOR2I(mm(x), mm(y))


def main(plan_path: str) -> None:
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    board = pcbnew.NewBoard(plan["board"])
    board.SetCopperLayerCount(int(plan.get("copper_layers", 2)))
    settings = board.GetDesignSettings()
    rules = plan["rules"]
    settings.m_MinClearance = mm(rules["clearance"])
    settings.m_TrackMinWidth = mm(rules["track"])
    settings.m_ViasMinSize = mm(rules["via"])
    settings.m_MinThroughDrill = mm(rules["drill"])
    settings.m_ViasMinAnnularWidth = mm(rules["annular"])
    settings.m_CopperEdgeClearance = mm(rules["edge"])
    settings.SetBoardThickness(mm(rules["thickness"]))
    nets = {}
    for name in plan["nets"]:
        net = pcbnew.NETINFO_ITEM(board, name)
        board.Add(net)
        nets[name] = net
    for part in plan["footprints"]:
        fp = pcbnew.FootprintLoad(part["library"], part["name"])
        if fp is None:
            raise SystemExit("footprint not found: " + part["library"] + " " + part["name"])
        fp.SetReference(part["ref"])
        fp.SetValue(part["value"])
        fp.SetFPID(pcbnew.LIB_ID(part["lib_nick"], part["name"]))
        if part.get("path"):
            fp.SetPath(pcbnew.KIID_PATH(part["path"]))
            fp.SetSheetname("Root")
            fp.SetSheetfile(plan["sheetfile"])
        for key, value in part.get("fields", {}).items():
            fp.SetField(key, value)
            field = fp.GetFieldByName(key)
            if field is not None:
                field.SetVisible(False)
        board.Add(fp)
        fp.SetPosition(point(part["x"], part["y"]))
        fp.SetOrientationDegrees(float(part.get("rotation", 0)))
        if part.get("board_only"):
            fp.SetBoardOnly(True)
            fp.SetExcludedFromBOM(True)
            fp.SetExcludedFromPosFiles(True)
        for pad in fp.Pads():
            net = part["pads"].get(pad.GetNumber())
            if net:
                pad.SetNet(nets[net])
    for track in plan["tracks"]:
        t = pcbnew.PCB_TRACK(board)
        t.SetStart(point(track["x1"], track["y1"]))
        t.SetEnd(point(track["x2"], track["y2"]))
        t.SetWidth(mm(track["width"]))
        t.SetLayer(COPPER[track["layer"]])
        t.SetNet(nets[track["net"]])
        board.Add(t)
    for via in plan["vias"]:
        v = pcbnew.PCB_VIA(board)
        v.SetPosition(point(via["x"], via["y"]))
        v.SetWidth(mm(via["size"]))
        v.SetDrill(mm(via["drill"]))
        v.SetNet(nets[via["net"]])
        board.Add(v)
    x0, y0, x1, y1 = plan["outline"]
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
        edge = pcbnew.PCB_SHAPE(board)
        edge.SetShape(pcbnew.SHAPE_T_SEGMENT)
        edge.SetStart(point(ax, ay))
        edge.SetEnd(point(bx, by))
        edge.SetLayer(pcbnew.Edge_Cuts)
        edge.SetWidth(mm(0.1))
        board.Add(edge)
    for text in plan["texts"]:
        t = pcbnew.PCB_TEXT(board)
        t.SetText(text["text"])
        t.SetPosition(point(text["x"], text["y"]))
        t.SetLayer(pcbnew.F_SilkS if text.get("layer", "F.SilkS") == "F.SilkS" else pcbnew.B_SilkS)
        t.SetTextSize(pcbnew.VECTOR2I(mm(text["size"]), mm(text["size"])))
        t.SetTextThickness(mm(text["size"] * 0.15))
        board.Add(t)
    for zone in plan.get("zones", []):
        z = pcbnew.ZONE(board)
        z.SetLayer(COPPER[zone["layer"]])
        z.SetNet(nets[zone["net"]])
        outline = z.Outline()
        outline.NewOutline()
        for x, y in zone["points"]:
            outline.Append(mm(x), mm(y))
        z.SetLocalClearance(mm(zone["clearance"]))
        z.SetMinThickness(mm(0.25))
        z.SetPadConnection(pcbnew.ZONE_CONNECTION_THERMAL)
        board.Add(z)
    if plan.get("zones"):
        pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    board.Save(plan["board"])


if __name__ == "__main__":
    main(sys.argv[1])
