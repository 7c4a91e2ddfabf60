import { validationFailed } from './validation';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import type { Request } from 'express';
import { AppError } from '@/common/app-error';
import { textProblem } from '@/http/errors/request-body-guard';

const API_PARAMETERS = DECORATORS.API_PARAMETERS;

interface ApiParameter {
  in?: string;
  name?: string;
  isArray?: boolean;
  schema?: { type?: string };
}

/**
 * A query parameter the route does not declare (with @ApiQuery, the same metadata
 * the OpenAPI document is built from) is 400 UNKNOWN_PARAMETER, so a typo (or `page[]=1`,
 * `sort[a]=b`) never silently changes a result. A parameter repeated that is not an array (`isArray`
 * or an array schema) is refused too, and query text that is not valid Unicode is 400 VALIDATION_FAILED.
 */
@Injectable()
export class QueryParametersGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const query = (req.query ?? {}) as Record<string, unknown>;
    const names = Object.keys(query);
    if (names.length === 0) return true;
    const declared = new Map<string, ApiParameter>();
    for (const p of this.reflector.get<ApiParameter[] | undefined>(
      API_PARAMETERS,
      context.getHandler(),
    ) ?? []) {
      if (p.in === 'query' && p.name) declared.set(p.name, p);
    }
    for (const name of names) {
      const param = declared.get(name);
      const value = query[name];
      if (!param) throw unknownParameter(name, 'is not a parameter of this operation');
      if (Array.isArray(value) && !param.isArray && param.schema?.type !== 'array') {
        throw unknownParameter(name, 'may be given only once');
      }
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item !== 'string') throw unknownParameter(name, 'must be a plain value');
        const problem =
          textProblem(item) ?? (item.includes('\uFFFD') ? 'is not valid UTF-8' : null);
        if (problem) {
          throw validationFailed([{ field: name, message: problem }]);
        }
      }
    }
    return true;
  }
}

function unknownParameter(name: string, message: string): AppError {
  return AppError.badRequest('UNKNOWN_PARAMETER', `The query parameter "${name}" ${message}.`, [
    { field: name, message },
  ]);
}
